import VarlinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// How the daemon runs: where it listens and who may change its trees, which tree file it
/// hosts and where it keeps state, its limits, and what it follows. `appstated`'s option
/// groups build each part.
package struct DaemonConfiguration: Sendable {
    /// Where the daemon listens and who may change state.
    package var socket: Socket
    /// The tree file and the state directory.
    package var files: Files
    /// The bounds on messages, connections and watchers.
    package var limits: ServerLimits
    /// What the trees follow: logind, the on-screen keyboard, the compositor's output.
    package var followers: Followers

    /// Creates a configuration, of the defaults unless given.
    /// - Parameters:
    ///   - socket: Where the daemon listens and who may change state.
    ///   - files: The tree file and the state directory.
    ///   - limits: The bounds on messages, connections and watchers.
    ///   - followers: What the trees follow.
    package init(socket: Socket = Socket(), files: Files = Files(), limits: ServerLimits = ServerLimits(), followers: Followers = Followers()) {
        self.socket = socket
        self.files = files
        self.limits = limits
        self.followers = followers
    }

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
