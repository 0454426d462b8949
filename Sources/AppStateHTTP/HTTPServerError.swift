/// Why an ``HTTPServer`` could not start, or a socket could not be taken over, as one sentence.
public struct HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence.
    public let description: String

    /// Creates the error.
    /// - Parameter description: The sentence.
    public init(_ description: String) {
        self.description = description
    }
}
