/// A failure of `appstate-gateway` before it serves anything, as one sentence.
public struct GatewayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence.
    public let description: String

    /// Creates the error.
    /// - Parameter description: The sentence.
    public init(_ description: String) {
        self.description = description
    }
}
