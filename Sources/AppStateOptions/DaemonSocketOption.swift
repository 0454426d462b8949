import AppStateCtlKit
import ArgumentParser
import Glibc

/// The `--socket` option of the web tools (`appstate-inspect`, `appstate-gateway`), found as
/// `appstatectl` finds it (``SocketLocation``).
public struct DaemonSocketOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's socket.",
            discussion: """
                Default: $APPSTATE_SOCKET, else /run/appstate/io.appstate for root and \
                $XDG_RUNTIME_DIR/appstate/io.appstate for other users, as for appstatectl.
                """,
            valueName: "path"
        ),
        completion: .file()
    )
    var socket: String?

    /// An option not given yet; ArgumentParser fills it in.
    public init() {}

    /// The socket to connect to: `--socket`, `$APPSTATE_SOCKET`, or the default.
    /// - Returns: The path.
    /// - Throws: ``CtlError`` (exit status 64) when none is given and there is no default.
    public func path() throws(CtlError) -> String {
        try SocketLocation.resolve(option: socket, environment: getenv(SocketLocation.environmentVariable).map { String(cString: $0) })
    }
}
