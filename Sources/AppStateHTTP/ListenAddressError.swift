/// A `--listen` value that names no address to listen on, as one sentence.
public struct ListenAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value given.
    public let text: String
    /// Whether `unix:PATH` was accepted as well as `HOST:PORT`.
    public let acceptsUnixSockets: Bool

    /// Creates the error.
    /// - Parameters:
    ///   - text: The value given.
    ///   - acceptsUnixSockets: Whether the option also takes `unix:PATH`.
    public init(_ text: String, acceptsUnixSockets: Bool = false) {
        self.text = text
        self.acceptsUnixSockets = acceptsUnixSockets
    }

    /// The sentence.
    public var description: String {
        acceptsUnixSockets
            ? "--listen takes HOST:PORT with a port from 0 to 65535 (e.g. 127.0.0.1:8080) or unix:PATH with an absolute path, not \"\(text)\""
            : "--listen takes HOST:PORT with a port from 0 to 65535 (e.g. 127.0.0.1:8080), not \"\(text)\""
    }
}
