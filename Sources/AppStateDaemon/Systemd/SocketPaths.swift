import AppStateIPC
import Glibc

/// Where the daemon binds its Varlink socket when it is not socket-activated, and where
/// clients look for it by default.
public enum SocketPaths {
    /// The socket's file name: the Varlink interface it serves, as systemd names its own
    /// Varlink sockets (`/run/systemd/io.systemd.Hostname`, …).
    public static let socketName = "io.appstate"

    /// The system-wide socket path: also the `ListenStream=` of `appstated.socket`.
    public static let systemSocketPath = AppStateInterface.systemSocketPath

    /// The default socket path: ``systemSocketPath`` for root, else
    /// `$XDG_RUNTIME_DIR/appstate/io.appstate` (a per-user, per-session directory that
    /// only the user can enter).
    ///
    /// - Parameters:
    ///   - environment: The environment to read `XDG_RUNTIME_DIR` from.
    ///   - uid: The effective uid deciding between the system and the per-user path.
    /// - Returns: An absolute path.
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/runtimeDirectoryUnset`` for a
    ///   non-root uid when `XDG_RUNTIME_DIR` is unset or not absolute.
    public static func defaultSocketPath(
        environment: [String: String] = ProcessEnvironment.current,
        uid: uid_t = geteuid()
    ) throws -> String {
        if uid == 0 { return systemSocketPath }
        // The XDG base directory specification says relative values are to be ignored.
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
            throw SystemdError(
                .runtimeDirectoryUnset,
                "XDG_RUNTIME_DIR is not set to an absolute path, so there is no default socket path for uid \(uid); pass --socket PATH"
            )
        }
        return PathText.appending("appstate/\(socketName)", to: runtime)
    }

    /// Creates the directory a socket will be bound in, if it does not exist yet.
    ///
    /// Only the last component is created (mode 0755: the socket's own mode decides who
    /// may connect); its parent, `/run` or `$XDG_RUNTIME_DIR`, must exist.
    ///
    /// - Parameters:
    ///   - socketPath: The path the socket will be bound to.
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/directoryCreationFailed``.
    public static func createParentDirectory(of socketPath: String) throws {
        let directory = PathText.parent(of: socketPath)
        guard !directory.isEmpty else { return }
        if mkdir(directory, 0o755) == 0 { return }
        let error = errno
        var status = stat()
        if error == EEXIST, stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
        throw SystemdError(.directoryCreationFailed, "cannot create socket directory \(directory)", errno: error)
    }
}
