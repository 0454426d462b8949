import AppStateCtlKit
import AppStateIPC
import Foundation

/// Reads where the followed tree's idle steps stand (`GetStats`) every second, on a thread of
/// its own, and publishes it to an ``InspectorHub``: the idle clock moves without events, so
/// `Watch` cannot tell it.
public final class IdleFollower: Sendable {
    private let daemon: FollowedDaemon

    /// Creates a follower; nothing happens before ``start()``.
    /// - Parameter daemon: The daemon, the tree and the hub.
    public init(daemon: FollowedDaemon) {
        self.daemon = daemon
    }

    /// Starts reading every second, on a thread of its own.
    public func start() {
        daemon.repeatOnThreadOfItsOwn { [self] in read() }
    }

    private func read() {
        // A daemon that cannot be reached is WatchFollower's to report.
        guard let stats = try? VarlinkClient(path: daemon.socketPath, timeout: .seconds(5)).call(GetStats.self, .init(tree: daemon.tree)) else {
            return
        }
        let name = daemon.tree ?? stats.trees.first
        daemon.hub.publishIdle(stats.idle.first { $0.tree == name }, inhibitors: stats.inhibitors.filter { $0.tree == name })
    }
}
