import Glibc

extension AppStateInterface {
    /// Where the system daemon listens: under `/run`, outside the service's
    /// `RuntimeDirectory=` so that socket activation keeps it across restarts.
    public static let systemSocketPath = "/run/appstate/io.appstate"

    /// Where a daemon started without `--socket` listens, and so where a client looks
    /// first: ``systemSocketPath`` for root, else `$XDG_RUNTIME_DIR/appstate/io.appstate`
    /// (falling back to the system path when the variable is unset).
    /// - Parameters:
    ///   - userID: The user to answer for; the calling process's user by default.
    ///   - runtimeDirectory: The user's `XDG_RUNTIME_DIR`; read from the environment by default.
    /// - Returns: The socket path.
    public static func defaultSocketPath(
        userID: uid_t = getuid(),
        runtimeDirectory: String? = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
    ) -> String {
        guard userID != 0, let runtimeDirectory, !runtimeDirectory.isEmpty else { return systemSocketPath }
        return runtimeDirectory + "/appstate/io.appstate"
    }
}
