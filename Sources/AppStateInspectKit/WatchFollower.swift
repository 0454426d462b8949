import AppStateCtlKit
import AppStateIPC
import Foundation

/// Follows the daemon's `Watch` on a thread of its own and publishes every reply to an
/// ``InspectorHub``; when the daemon cannot be reached or the stream ends, it says so on
/// the hub and tries again every second, so the inspector outlives a daemon restart.
public final class WatchFollower: Sendable {
    private let socketPath: String
    private let tree: String?
    private let hub: InspectorHub

    /// Creates a follower; nothing happens before ``start()``.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - tree: The tree to follow; the daemon's first when `nil`.
    ///   - hub: Where to publish.
    public init(socketPath: String, tree: String?, hub: InspectorHub) {
        self.socketPath = socketPath
        self.tree = tree
        self.hub = hub
    }

    /// Starts following, on a new thread: a `Watch` can block for hours, which must not
    /// hold a thread of Swift's cooperative pool or of the event loop.
    public func start() {
        Thread.detachNewThread { [self] in
            while true {
                follow()
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    private func follow() {
        do {
            // No time limit: a Watch waits for changes as long as there are none.
            let client = try VarlinkClient(path: socketPath, timeout: nil)
            var replies = try client.stream(method: Watch.name, parameters: Watch.Parameters(tree: tree).parameters)
            var announced = false
            // The first reply is the tree; each later one says what changed, which is applied
            // to this copy so that the hub sees the whole tree after every event.
            var copy: Node?
            while let reply = try replies.next(as: Watch.self) {
                let receivedAt = Date().timeIntervalSince1970 * 1_000
                if !announced {
                    hub.publishStatus(connected: true, message: "following \(socketPath)")
                    announced = true
                }
                copy = reply.root ?? copy?.applying(Node.Changes(changed: reply.changed ?? [], removed: reply.removed ?? []))
                if let copy { hub.publish(event: reply.event, root: copy, receivedAt: receivedAt) }
            }
            hub.publishStatus(connected: false, message: "appstated ended the Watch stream; reconnecting")
        } catch {
            hub.publishStatus(connected: false, message: CtlError(error).message + "; retrying")
        }
    }
}
