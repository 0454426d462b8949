#if canImport(Glibc)
import Glibc
#endif
import AppStateHost
import VarlinkServer

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
    /// Whether trees with a login-state container follow systemd-logind's ``seat``
    /// (`--follow-logind`); a tree file's `logindSeat` makes a tree follow its own seat
    /// without it.
    public var followLogind = false
    /// The logind seat followed by trees that name none (`--seat`).
    public var seat = "seat0"
    /// Whether the trees follow squeekboard's on-screen keyboard on the session bus (`--follow-osk`).
    public var followOnScreenKeyboard = false
    /// The keyboard's height in points (`--osk-height`); nil for squeekboard's own sizing
    /// rule, ``OnScreenKeyboardHeight/squeekboard(for:)``.
    public var onScreenKeyboardHeight: Double?

    /// The defaults.
    public init() {}
}
