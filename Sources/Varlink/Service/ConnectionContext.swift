/// What the service knows of one connection: who is calling, and where its stream of
/// replies goes. It names no socket, so the service answers calls without knowing how they travel.
public struct ConnectionContext: Sendable {
    /// The peer, as SO_PEERCRED told when it connected.
    public let peer: Peer
    /// The connection as a stream of replies, should a call turn it into one.
    public let watcher: any WatcherSink

    /// Creates a connection's description.
    /// - Parameters:
    ///   - peer: Who is calling.
    ///   - watcher: Where the connection's streamed replies go.
    public init(peer: Peer, watcher: any WatcherSink) {
        self.peer = peer
        self.watcher = watcher
    }
}
