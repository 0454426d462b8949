/// What the service knows of one connection: who is calling, and where its `Watch` stream
/// goes. It names no socket, so the host answers calls without knowing how they travel.
package struct ConnectionContext: Sendable {
    /// The peer, as SO_PEERCRED told when it connected.
    package let peer: Peer
    /// The connection as a `Watch` stream, should a call turn it into one.
    package let watcher: any WatcherSink

    /// Creates a connection's description.
    /// - Parameters:
    ///   - peer: Who is calling.
    ///   - watcher: Where the connection's `Watch` replies go.
    package init(peer: Peer, watcher: any WatcherSink) {
        self.peer = peer
        self.watcher = watcher
    }
}
