import Glibc

extension AppStateInterface {
    /// Where the system daemon listens: under `/run`, outside the service's
    /// `RuntimeDirectory=` so that socket activation keeps it across restarts.
    public static let systemSocketPath = "/run/appstate/io.appstate"

    /// Where a daemon started without `--socket` listens, and so where a client given no
    /// socket looks: ``systemSocketPath`` for root, else `$XDG_RUNTIME_DIR/appstate/io.appstate`.
    ///
    /// This is the one rule for the daemon, `appstatectl`, `appstate-inspect` and any other
    /// client, so that they meet without being told where. The effective user decides, as it
    /// decides which sockets the process may bind and connect to. `XDG_RUNTIME_DIR` is the
    /// user's private directory for sockets, and the XDG Base Directory Specification says a
    /// relative value is to be ignored; without an absolute one there is no per-user place,
    /// and the system socket is not a fallback, since it belongs to another daemon: the
    /// caller has to be given a socket.
    ///
    /// - Parameters:
    ///   - effectiveUserID: The user to answer for; the process's effective user by default.
    ///   - runtimeDirectory: The value of `XDG_RUNTIME_DIR`, nil when it is unset; read from
    ///     the process's environment by default.
    /// - Returns: An absolute path. Trailing slashes of `runtimeDirectory` are not repeated in it.
    /// - Throws: ``DefaultSocketPathError`` for any user but root when `runtimeDirectory` is
    ///   nil, empty or not an absolute path.
    public static func defaultSocketPath(
        effectiveUserID: uid_t = geteuid(),
        runtimeDirectory: String? = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
    ) throws(DefaultSocketPathError) -> String {
        if effectiveUserID == 0 { return systemSocketPath }
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else {
            throw DefaultSocketPathError(effectiveUserID: effectiveUserID, runtimeDirectory: runtimeDirectory)
        }
        var directory = Substring(runtimeDirectory)
        while directory.hasSuffix("/") { directory = directory.dropLast() }
        return String(directory) + "/appstate/" + name
    }
}

/// Why there is no default socket path: the user is not root and `XDG_RUNTIME_DIR` is unset,
/// empty or relative (see ``AppStateInterface/defaultSocketPath(effectiveUserID:runtimeDirectory:)``).
///
/// Its ``description`` is a sentence for a command-line tool to print: it names the variable,
/// the user and what to do instead, `--socket PATH`.
public struct DefaultSocketPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The effective user the path was asked for.
    public var effectiveUserID: uid_t
    /// The value of `XDG_RUNTIME_DIR` that was found, nil when it was unset.
    public var runtimeDirectory: String?

    /// Creates the error.
    /// - Parameters:
    ///   - effectiveUserID: The effective user the path was asked for.
    ///   - runtimeDirectory: The value of `XDG_RUNTIME_DIR`, nil when it was unset.
    public init(effectiveUserID: uid_t, runtimeDirectory: String?) {
        self.effectiveUserID = effectiveUserID
        self.runtimeDirectory = runtimeDirectory
    }

    /// What is wrong with `XDG_RUNTIME_DIR`, e.g. `XDG_RUNTIME_DIR is not set` or
    /// `XDG_RUNTIME_DIR is "run/user/1000", not an absolute path`.
    public var reason: String {
        switch runtimeDirectory {
        case nil, ""?: "XDG_RUNTIME_DIR is not set"
        case let value?: "XDG_RUNTIME_DIR is \"\(value)\", not an absolute path"
        }
    }

    /// The sentence: the reason, that uid N has no default socket, and to pass `--socket PATH`.
    public var description: String {
        "\(reason), so there is no default socket for uid \(effectiveUserID); pass --socket PATH"
    }
}
