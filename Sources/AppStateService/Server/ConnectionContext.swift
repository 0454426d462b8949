import NIOCore

/// What the service knows of one connection: who is calling, and how to stream to it.
public final class ConnectionContext: Sendable {
    /// The peer, as SO_PEERCRED told when it connected.
    public let peer: Peer
    private let channel: any Channel
    private let watcherQueueLimit: Int
    private let watcherReplyLimit: Int
    private let watcherGrace: Duration

    init(peer: Peer, channel: any Channel, watcherQueueLimit: Int, watcherReplyLimit: Int, watcherGrace: Duration) {
        self.peer = peer
        self.channel = channel
        self.watcherQueueLimit = watcherQueueLimit
        self.watcherReplyLimit = watcherReplyLimit
        self.watcherGrace = watcherGrace
    }

    /// Turns the connection into a `Watch` stream.
    func makeWatcher() -> WatcherConnection {
        WatcherConnection(channel: channel, limit: watcherQueueLimit, replyLimit: watcherReplyLimit, grace: watcherGrace)
    }
}
