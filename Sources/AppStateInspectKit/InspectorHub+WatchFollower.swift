import AppStateCtlKit
import AppStateWebServices
import Foundation

extension InspectorHub {
    /// Publishes what a ``WatchFollower`` of the daemon reports: whether it follows, and each
    /// reply with the whole tree after it.
    /// - Parameters:
    ///   - update: What the follower reports.
    ///   - socketPath: The daemon's socket, for the status line.
    public func follow(_ update: WatchFollower.Update, socketPath: String) {
        switch update {
        case .connected:
            publishStatus(connected: true, message: "following \(socketPath)")
        case .reply(let reply, let tree):
            publish(event: reply.event, root: tree, receivedAt: Date().timeIntervalSince1970 * 1_000)
        case .disconnected(let reason):
            publishStatus(connected: false, message: reason)
        case .refused(let error):
            publishStatus(connected: false, message: CtlError(error).message + "; retrying")
        }
    }
}
