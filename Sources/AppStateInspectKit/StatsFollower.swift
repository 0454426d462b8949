import AppStateCtlKit
import AppStateIPC
import Foundation

/// Reads what `GetStats` says of the followed tree every second, on a thread of its own, and
/// publishes it to an ``InspectorHub``: where its idle steps stand, which moves without
/// events, so `Watch` cannot tell it, and its front-ends, whose reports `Watch` tells only
/// when they change, not as a list to start from.
public final class StatsFollower: Sendable {
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
        daemon.hub.publishFrontEnds(stats.frontEnds.filter { $0.tree == name })
    }
}
