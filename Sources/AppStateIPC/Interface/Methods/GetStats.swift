import AppStateCore

/// `io.appstate.GetStats() -> (version, uptimeSeconds, trees, connections, watchers,
/// requests, stateDirectory, socket, followers)`: figures about the daemon.
public enum GetStats: VarlinkMethod {
    /// `io.appstate.GetStats`.
    public static let name = AppStateMethod.getStats.rawValue

    /// The parameters: only the optional tree name, accepted for symmetry.
    public typealias Parameters = TreeParameters

    /// The reply.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = [
            "version", "uptimeSeconds", "trees", "connections", "watchers", "requests", "stateDirectory", "socket", "followers",
        ]

        /// The daemon's version.
        public var version: String
        /// Seconds since the daemon started.
        public var uptimeSeconds: Double
        /// The names of the trees, the default first.
        public var trees: [String]
        /// How many clients are connected.
        public var connections: Int
        /// How many Watch calls are running.
        public var watchers: Int
        /// How many calls were answered since the daemon started.
        public var requests: Int
        /// Where restorable state is saved.
        public var stateDirectory: String?
        /// The path of the socket the daemon listens on.
        public var socket: String?
        /// The system sources the daemon follows (`--follow-logind`, `--follow-osk`); absent
        /// when it follows none.
        public var followers: [Follower]?

        /// Creates the reply.
        /// - Parameters:
        ///   - version: The daemon's version.
        ///   - uptimeSeconds: Seconds since the daemon started.
        ///   - trees: The names of the trees, the default first.
        ///   - connections: How many clients are connected.
        ///   - watchers: How many Watch calls are running.
        ///   - requests: How many calls were answered.
        ///   - stateDirectory: Where restorable state is saved.
        ///   - socket: The path of the listening socket.
        ///   - followers: The system sources followed, if any.
        public init(
            version: String,
            uptimeSeconds: Double,
            trees: [String],
            connections: Int,
            watchers: Int,
            requests: Int,
            stateDirectory: String? = nil,
            socket: String? = nil,
            followers: [Follower]? = nil
        ) {
            self.version = version
            self.uptimeSeconds = uptimeSeconds
            self.trees = trees
            self.connections = connections
            self.watchers = watchers
            self.requests = requests
            self.stateDirectory = stateDirectory
            self.socket = socket
            self.followers = followers
        }
    }
}
