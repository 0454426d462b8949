import AppStateCtlKit
import AppStateIPC
import Foundation

/// Follows the daemon's `Watch` on a thread of its own and publishes every reply to an
/// ``InspectorHub``; when the daemon cannot be reached or the stream ends, it says so on
/// the hub and tries again every second, so the inspector outlives a daemon restart.
public final class WatchFollower: Sendable {
    private let daemon: FollowedDaemon

    /// Creates a follower; nothing happens before ``start()``.
    /// - Parameter daemon: The daemon, the tree and the hub.
    public init(daemon: FollowedDaemon) {
        self.daemon = daemon
    }

    /// Starts following, again a second after each end, on a thread of its own.
    public func start() {
        daemon.repeatOnThreadOfItsOwn { [self] in follow() }
    }

    private func follow() {
        do {
            // No time limit: a Watch waits for changes as long as there are none.
            let client = try VarlinkClient(path: daemon.socketPath, timeout: nil)
            var replies = try client.stream(method: Watch.name, parameters: Watch.Parameters(tree: daemon.tree).parameters)
            var announced = false
            // The first reply is the tree; each later one says what changed, which is applied
            // to this copy so that the hub sees the whole tree after every event.
            var copy: Node?
            while let reply = try replies.next(as: Watch.self) {
                let receivedAt = Date().timeIntervalSince1970 * 1_000
                if !announced {
                    daemon.hub.publishStatus(connected: true, message: "following \(daemon.socketPath)")
                    announced = true
                }
                copy = try reply.root ?? copy?.applying(reply)
                if let copy { daemon.hub.publish(event: reply.event, root: copy, receivedAt: receivedAt) }
            }
            daemon.hub.publishStatus(connected: false, message: "appstated ended the Watch stream; reconnecting")
        } catch {
            daemon.hub.publishStatus(connected: false, message: CtlError(error).message + "; retrying")
        }
    }
}
