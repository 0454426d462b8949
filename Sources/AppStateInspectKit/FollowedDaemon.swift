import Foundation

/// The daemon an inspector follows, the tree it shows and the hub it publishes to: what
/// ``WatchFollower`` and ``StatsFollower`` share.
public struct FollowedDaemon: Sendable {
    /// The daemon's socket.
    public let socketPath: String
    /// The tree to show; the daemon's first when `nil`.
    public let tree: String?
    /// Where to publish.
    public let hub: InspectorHub

    /// Names the daemon to follow.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - tree: The tree to show; the daemon's first when `nil`.
    ///   - hub: Where to publish.
    public init(socketPath: String, tree: String?, hub: InspectorHub) {
        self.socketPath = socketPath
        self.tree = tree
        self.hub = hub
    }

    /// Runs `body` on a new thread, again a second after each return, for as long as the
    /// process lives: a blocking client call must not hold a thread of Swift's cooperative
    /// pool or of the event loop.
    /// - Parameter body: One attempt, e.g. one `Watch` until it ends.
    func repeatOnThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            while true {
                body()
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }
}
