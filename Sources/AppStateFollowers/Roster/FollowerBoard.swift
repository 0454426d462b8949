import AppStateIPC
import NIOConcurrencyHelpers

/// Where `GetStats` finds the followers and how each stands. The followers deliver to the
/// request processor, so they are made after it; the processor reads them from here.
package final class FollowerBoard: Sendable {
    /// An empty board.
    package init() {}

    private let followers = NIOLockedValueBox<[any SystemFollower]>([])

    /// Shows the followers the daemon runs.
    /// - Parameter followers: The followers.
    func show(_ followers: [any SystemFollower]) {
        self.followers.withLockedValue { $0 = followers }
    }

    /// Each follower and how it stands now; nil when the daemon follows nothing.
    package var statuses: [Follower]? {
        let all = followers.withLockedValue { $0 }
        guard !all.isEmpty else { return nil }
        return all.map { follower in
            let status = follower.status
            return Follower(name: follower.name, connected: status.isConnected, detail: status.detail)
        }
    }
}
