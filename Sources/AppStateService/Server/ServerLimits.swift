/// The bounds that keep one client from growing the daemon's memory or holding it hostage.
public struct ServerLimits: Sendable {
    /// The largest message accepted, in bytes; a larger one is answered with
    /// `io.appstate.MessageTooLarge` and the connection is closed.
    public var maximumMessageSize = 1 << 20
    /// Connections beyond this many are answered with `io.appstate.TooManyConnections` and closed.
    public var maximumConnections = 1000
    /// A connection holding half a message for this long is closed.
    public var partialMessageTimeout: Duration = .seconds(10)
    /// Bytes queued to one watcher beyond this many cut it off with `io.appstate.WatcherTooSlow`.
    public var maximumWatcherQueue = 4 << 20
    /// Replies queued to one watcher beyond this many cut it off too: each queued reply also
    /// costs a few hundred bytes of bookkeeping, so with small trees the byte limit alone let
    /// a watcher that never reads hold about 1.5 MiB.
    public var maximumWatcherReplies = 1024

    /// The defaults.
    public init() {}
}
