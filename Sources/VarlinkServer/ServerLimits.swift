/// The bounds that keep one client from growing the daemon's memory or holding it hostage.
public struct ServerLimits: Sendable {
    /// The largest message accepted, in bytes; a larger one is answered with
    /// the host's message-too-large error (``ConnectionErrors``) and the connection is closed.
    public var maximumMessageSize = 1 << 20
    /// Connections beyond this many are answered with the host's too-many-connections error and closed.
    public var maximumConnections = 1000
    /// Connections of one user beyond this many are refused the same way, so that one local
    /// user cannot hold every place. Root and the daemon's own user are not counted.
    public var maximumConnectionsPerUser = 100
    /// A connection that sends nothing for this long while nothing is in flight for it is
    /// closed; `Watch` streams never are. Nil keeps idle connections open.
    public var idleTimeout: Duration? = .seconds(300)
    /// A connection holding half a message for this long is closed.
    public var partialMessageTimeout: Duration = .seconds(10)
    /// Bytes queued to one watcher beyond this many cut it off with the host's watcher-too-slow error.
    public var maximumWatcherQueue = 4 << 20
    /// Replies queued to one watcher beyond this many cut it off too: each queued reply also
    /// holds bookkeeping of its own beside its bytes, so with small trees the byte limit alone
    /// would let a watcher that never reads hold far more memory than it counts.
    public var maximumWatcherReplies = 1024

    /// The defaults.
    public init() {}
}
