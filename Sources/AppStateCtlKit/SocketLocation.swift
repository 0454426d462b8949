import AppStateIPC

/// Where `appstatectl` looks for the daemon: `--socket`, else `$APPSTATE_SOCKET`, else
/// the path a daemon started without `--socket` listens on.
public enum SocketLocation {
    /// The environment variable that names the socket when `--socket` is not given.
    public static let environmentVariable = "APPSTATE_SOCKET"

    /// Resolves the socket path.
    /// - Parameters:
    ///   - option: The value of `--socket`.
    ///   - environment: The value of `$APPSTATE_SOCKET`; empty counts as unset, as
    ///     shells make unsetting awkward.
    ///   - fallback: The default path, computed only when needed.
    /// - Returns: The path to connect to.
    public static func resolve(
        option: String?,
        environment: String?,
        fallback: () -> String = { AppStateInterface.defaultSocketPath() }
    ) -> String {
        if let option { return option }
        if let environment, !environment.isEmpty { return environment }
        return fallback()
    }
}
