import AppStateCtlKit
import AppStateIPC
import Foundation

/// Reads where the followed tree's idle steps stand (`GetStats`) every second, on a thread of
/// its own, and publishes it to an ``InspectorHub``: the idle clock moves without events, so
/// `Watch` cannot tell it.
public final class IdleFollower: Sendable {
    private let socketPath: String
    private let tree: String?
    private let hub: InspectorHub

    /// Creates a follower; nothing happens before ``start()``.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - tree: The tree to show; the daemon's first when `nil`.
    ///   - hub: Where to publish.
    public init(socketPath: String, tree: String?, hub: InspectorHub) {
        self.socketPath = socketPath
        self.tree = tree
        self.hub = hub
    }

    /// Starts reading, on a new thread, which a blocking client call must not take from
    /// Swift's cooperative pool or the event loop.
    public func start() {
        Thread.detachNewThread { [self] in
            while true {
                read()
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    private func read() {
        // A daemon that cannot be reached is WatchFollower's to report.
        guard let stats = try? VarlinkClient(path: socketPath, timeout: .seconds(5)).call(GetStats.self, .init(tree: tree)) else { return }
        let name = tree ?? stats.trees.first
        hub.publishIdle(stats.idle.first { $0.tree == name }, inhibitors: stats.inhibitors.filter { $0.tree == name })
    }
}
