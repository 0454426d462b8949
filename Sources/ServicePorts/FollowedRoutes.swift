/// What each tree follows, by tree name: the logind seat that owns its session and the
/// output that owns its window's size. The daemon works it out from its options and the tree
/// file at start and at each reload; the host's gates and the followers both read it.
package struct FollowedRoutes: Hashable, Sendable {
    /// The seat each tree's session follows.
    package var seats: [String: String]
    /// The output each tree's window follows.
    package var outputs: [String: FollowedOutput]

    /// Creates the routes.
    /// - Parameters:
    ///   - seats: The seat each tree's session follows, by tree name.
    ///   - outputs: The output each tree's window follows, by tree name.
    package init(seats: [String: String] = [:], outputs: [String: FollowedOutput] = [:]) {
        self.seats = seats
        self.outputs = outputs
    }
}
