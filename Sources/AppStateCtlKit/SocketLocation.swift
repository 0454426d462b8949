import AppStateIPC

/// Where `appstatectl` and the web tools look for the daemon: `--socket`, else
/// `$APPSTATE_SOCKET`, else the path a daemon started without `--socket` listens on
/// (``AppStateInterface/defaultSocketPath(effectiveUserID:runtimeDirectory:)``).
public enum SocketLocation {
    /// The environment variable that names the socket when `--socket` is not given.
    public static let environmentVariable = "APPSTATE_SOCKET"

    /// Resolves the socket path.
    /// - Parameters:
    ///   - option: The value of `--socket`.
    ///   - environment: The value of `$APPSTATE_SOCKET`; empty counts as unset, as
    ///     shells make unsetting awkward.
    ///   - fallback: The default path, computed only when neither is given.
    /// - Returns: The path to connect to.
    /// - Throws: ``CtlError`` with exit status 64 (``ExitStatus/usage``) when there is no
    ///   default path: nothing was tried, and only a socket on the command line or in the
    ///   environment can help, so it is the command's use that is wrong, not the daemon.
    public static func resolve(
        option: String?,
        environment: String?,
        fallback: () throws(DefaultSocketPathError) -> String = { () throws(DefaultSocketPathError) in
            try AppStateInterface.defaultSocketPath()
        }
    ) throws(CtlError) -> String {
        if let option { return option }
        if let environment, !environment.isEmpty { return environment }
        do {
            return try fallback()
        } catch {
            throw CtlError(error)
        }
    }
}
