#if canImport(Glibc)
import Glibc
#endif

/// How the daemon runs: where it listens and keeps state, which trees it hosts, who may
/// change them, and its limits. `appstated`'s options fill this in.
public struct DaemonConfiguration: Sendable {
    /// The socket path; nil for socket activation or the default path.
    public var socketPath: String?
    /// The mode of a socket the daemon creates itself.
    public var socketMode: mode_t = 0o660
    /// The state directory; nil for `$STATE_DIRECTORY` or the default.
    public var stateDirectory: String?
    /// The tree file; nil for the embedded default tree.
    public var treeFile: String?
    /// Groups whose members may change state, besides root and the daemon's own user.
    public var allowedGroups = AccessPolicy.defaultGroupNames
    /// The bounds on messages, connections and watchers.
    public var limits = ServerLimits()

    /// The defaults.
    public init() {}
}
