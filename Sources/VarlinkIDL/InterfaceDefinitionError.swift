/// Why an interface definition could not be read.
public struct InterfaceDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public let description: String

    /// Creates an error.
    /// - Parameter description: What is wrong, in words.
    public init(_ description: String) {
        self.description = description
    }
}
