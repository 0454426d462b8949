/// A command-line value `appstatectl` cannot use, in words; the commands report it as a
/// usage error (exit status 64).
public struct ArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the value.
    public var description: String

    /// Creates an error.
    /// - Parameter description: What is wrong with the value.
    public init(_ description: String) {
        self.description = description
    }
}
