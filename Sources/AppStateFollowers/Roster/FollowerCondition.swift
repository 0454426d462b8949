/// Where a follower stands, as `GetStats` and the log show it.
package enum FollowerCondition: Hashable, Sendable {
    /// Connected to its bus and following its source; the detail says what it sees.
    case following(String)
    /// Not following: no bus, or the source is not on it; the detail says why.
    case disconnected(String)

    /// Whether it follows its source.
    package var isConnected: Bool {
        if case .following = self { return true }
        return false
    }

    /// The detail.
    package var detail: String {
        switch self {
        case .following(let detail), .disconnected(let detail): detail
        }
    }
}
