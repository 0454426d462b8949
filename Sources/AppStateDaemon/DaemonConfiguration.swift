import AppStateFollowers
import AppStateHost
import VarlinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// How the daemon runs: where it listens and keeps state, which trees it hosts, who may
/// change them, and its limits. `appstated`'s options fill this in.
package struct DaemonConfiguration: Sendable {
    /// The socket path; nil for socket activation or the default path.
    package var socketPath: String?
    /// The mode of a socket the daemon creates itself.
    package var socketMode: mode_t = 0o660
    /// The state directory; nil for `$STATE_DIRECTORY` or the default.
    package var stateDirectory: String?
    /// The tree file; nil for the embedded default tree. `appstated` sets it with
    /// ``treeFile(named:installed:)``.
    package var treeFile: String?
    /// Groups whose members may change state, besides root and the daemon's own user.
    package var allowedGroups = AccessPolicy.defaultGroupNames
    /// The bounds on messages, connections and watchers.
    package var limits = ServerLimits()
    /// Whether trees with a login-state container follow systemd-logind's ``seat``
    /// (`--follow-logind`); a tree file's `logindSeat` makes a tree follow its own seat
    /// without it.
    package var followLogind = false
    /// The logind seat followed by trees that name none (`--seat`).
    package var seat = "seat0"
    /// Whether the trees follow the on-screen keyboard on the session bus (`--follow-osk`).
    package var followOnScreenKeyboard = false
    /// The keyboard's height in points (`--osk-height`); nil for squeekboard's own sizing
    /// rule, ``OnScreenKeyboardHeight/squeekboard(for:)``.
    package var onScreenKeyboardHeight: Double?
    /// The one on-screen keyboard `--follow-osk` follows (`--osk-source`); nil for whichever
    /// of squeekboard, KWin's and Onboard is on the session bus.
    package var onScreenKeyboardSource: OnScreenKeyboardKind?
    /// Whether every tree's window follows a Wayland output's size (`--follow-output`); a
    /// tree file's `output` makes a tree follow its own output without it.
    package var followOutput = false
    /// The output followed by trees that name none (`--follow-output NAME`); nil for the
    /// compositor's first output.
    package var output: String?

    /// The defaults.
    package init() {}

    /// The tree file the Debian package installs (a conffile), which `appstated` runs when it
    /// is given no `--tree-file`.
    package static let installedTreeFile = "/etc/appstate/tree.yaml"

    /// The tree file to run: the one named, else the installed one when it is there, else nil
    /// for the embedded default tree.
    ///
    /// Only a file that is absent falls back to the embedded tree: one that is there but
    /// cannot be read is returned, so that the daemon fails naming it instead of running
    /// another tree than the machine's.
    /// - Parameters:
    ///   - named: The `--tree-file` given, if any.
    ///   - installed: Where the installed tree file is looked for.
    /// - Returns: The path to load, or nil for the embedded default tree.
    package static func treeFile(named: String?, installed: String = installedTreeFile) -> String? {
        if let named { return named }
        var status = stat()
        if stat(installed, &status) != 0, errno == ENOENT || errno == ENOTDIR { return nil }
        return installed
    }
}
