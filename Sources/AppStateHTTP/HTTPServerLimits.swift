/// The bounds an ``HTTPServer`` keeps, so that no client can grow its memory without bound.
public struct HTTPServerLimits: Hashable, Sendable {
    /// The largest request body read, in bytes; a larger one is answered 413 and its
    /// connection closed.
    public var maximumBodySize: Int
    /// How many connections are served at once; those beyond are answered 503 and closed.
    public var maximumConnections: Int
    /// How many bytes an event stream may hold unsent for a client that does not read them;
    /// past it the client is disconnected instead of buffered for.
    public var streamBufferLimit: Int
    /// The listening sockets' backlog: connections the kernel queues until they are accepted.
    public var backlog: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumBodySize: The largest request body, in bytes.
    ///   - maximumConnections: How many connections are served at once.
    ///   - streamBufferLimit: How many unsent bytes an event stream may hold.
    ///   - backlog: The listening sockets' backlog.
    public init(maximumBodySize: Int = 64 << 10, maximumConnections: Int = 512, streamBufferLimit: Int = 1 << 20, backlog: Int = 128) {
        self.maximumBodySize = maximumBodySize
        self.maximumConnections = maximumConnections
        self.streamBufferLimit = streamBufferLimit
        self.backlog = backlog
    }
}
