import AppStateHost
import Glibc

/// Where the daemon keeps its durable state (the restorable state of its trees).
package enum StateDirectory {
    /// The directory for root run by hand, matching `StateDirectory=appstate` under systemd.
    package static let systemPath = "/var/lib/appstate"

    /// Resolves the state directory, in this order:
    ///
    /// 1. `$STATE_DIRECTORY` (its first entry, it is a colon-separated list), set by systemd
    ///    from `StateDirectory=`. It wins over `--state-dir` because under the unit's
    ///    `ProtectSystem=strict` it is the only writable place that survives restarts.
    /// 2. `explicit`, the `--state-dir` option.
    /// 3. ``systemPath`` for root; otherwise `$XDG_STATE_HOME/appstate` when
    ///    `XDG_STATE_HOME` is absolute, else `~/.local/state/appstate`, where `~` is `$HOME`
    ///    or, when unset, the user's home directory from the password database.
    ///
    /// The directory is not created; see ``createIfNeeded(at:)``.
    ///
    /// - Parameters:
    ///   - explicit: The directory given on the command line, if any.
    ///   - environment: The environment to read `STATE_DIRECTORY`, `XDG_STATE_HOME` and `HOME` from.
    ///   - uid: The effective uid deciding between the system and the per-user default.
    /// - Returns: The directory path.
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/homeDirectoryUnknown`` when
    ///   the per-user default is needed and no home directory is known, or
    ///   ``SystemdError/Code/userLookupFailed``.
    package static func resolve(
        explicit: String?,
        environment: [String: String] = ProcessEnvironment.current,
        uid: uid_t = geteuid()
    ) throws -> String {
        if let fromSystemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first {
            return String(fromSystemd)
        }
        if let explicit, !explicit.isEmpty { return explicit }
        if uid == 0 { return systemPath }
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            return PathText.appending("appstate", to: stateHome)
        }
        guard let home = try homeDirectory(environment: environment, uid: uid) else {
            throw SystemdError(
                .homeDirectoryUnknown,
                "no state directory: HOME is unset and uid \(uid) has no home directory; pass --state-dir DIR"
            )
        }
        return PathText.appending(".local/state/appstate", to: home)
    }

    /// Creates the state directory and any missing parents, mode 0700 (the state names
    /// who is logged in), each made durable in its parent: without that fsync, a power cut
    /// could take away a new state directory with the states acknowledged in it. An
    /// existing directory is left as it is.
    ///
    /// - Parameters:
    ///   - path: The directory, as returned by ``resolve(explicit:environment:uid:)``.
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/directoryCreationFailed``.
    package static func createIfNeeded(at path: String) throws {
        // Each missing directory from the top down, as `mkdir -p -m 0700` makes them; one that
        // exists (made by someone else meanwhile, too) is left as it is.
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            let parent = prefix.isEmpty ? "." : prefix
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o700) == 0 {
                try syncDirectory(parent, made: path)
                continue
            }
            let error = errno
            var status = stat()
            guard error == EEXIST, stat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw SystemdError(.directoryCreationFailed, "cannot create state directory \(path)", errno: error)
            }
        }
    }

    /// Fsyncs a directory, so that the entry just made in it is on disk.
    private static func syncDirectory(_ directory: String, made path: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SystemdError(.directoryCreationFailed, "cannot open \(directory) to make state directory \(path) durable", errno: errno)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw SystemdError(.directoryCreationFailed, "cannot fsync \(directory) to make state directory \(path) durable", errno: errno)
        }
    }

    private static func homeDirectory(environment: [String: String], uid: uid_t) throws -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        guard let home = try UserDatabase.user(uid: uid)?.homeDirectory, home.hasPrefix("/") else { return nil }
        return home
    }
}
