/// Every exit status of appstate's programs, with what each program means by it: one table,
/// which the programs exit with and `docs/exit-statuses.md` lists (a test holds the page to it).
///
/// The statuses come from BSD's `sysexits.h` where one fits, so that scripts and systemd can
/// tell a refused request from a missing daemon or a slow one. A wrong command line exits 64
/// (`EX_USAGE`), which swift-argument-parser already does for its own errors; an error that
/// reaches it unhandled exits 1 (`EXIT_FAILURE`).
public struct ExitStatus: Hashable, Sendable {
    /// The number the process exits with.
    public let code: Int32
    /// Its name in `sysexits.h`, if it has one there.
    public let name: String?
    /// Each program that exits with it, by its executable's name, and when, in words.
    public let uses: [Use]

    /// One program's use of a status.
    public struct Use: Hashable, Sendable {
        /// The executable, e.g. `appstatectl`.
        public let program: String
        /// When it exits with the status.
        public let when: String
    }

    private init(_ code: Int32, _ name: String?, _ uses: KeyValuePairs<String, String>) {
        self.code = code
        self.name = name
        self.uses = uses.map { Use(program: $0.key, when: $0.value) }
    }

    /// Success.
    public static let success = ExitStatus(0, nil, ["every program": "it did what was asked, or was stopped by SIGTERM or SIGINT"])
    /// A refused request, or a program that could not start.
    public static let failure = ExitStatus(
        1, nil,
        [
            "appstatectl": "the daemon refused the request (a sentence on stderr)",
            "appstated": "it could not start: the tree file does not load, or the socket or the state directory cannot be used",
            "appstate-inspect": "it could not serve its page",
        ])
    /// The command line, or the environment standing in for it, is wrong.
    public static let usage = ExitStatus(
        64, "EX_USAGE",
        ["every program": "the command line is wrong, or gives no socket where there is no default (no `XDG_RUNTIME_DIR`)"])
    /// The input is wrong.
    public static let dataError = ExitStatus(65, "EX_DATAERR", ["appstated": "`--check FILE` found problems in the tree file"])
    /// What the program needs cannot be reached.
    public static let unavailable = ExitStatus(
        69, "EX_UNAVAILABLE",
        [
            "appstatectl": "the daemon cannot be reached (not running, wrong socket, no access, or serving its maximum of connections)",
            "appstate-kiosk": "the browser cannot be started, or was restarted more than `--max-restarts` times within `--restart-window`",
        ])
    /// A bug in the program itself.
    public static let software = ExitStatus(70, "EX_SOFTWARE", ["appstatectl": "a bug in `appstatectl` itself"])
    /// A system call failed for a reason unrelated to the daemon.
    public static let systemError = ExitStatus(
        71, "EX_OSERR",
        [
            "appstatectl": "a system call failed for a reason unrelated to the daemon",
            "appstate-gateway": "it cannot listen where it was asked to",
        ])
    /// An output file could not be written.
    public static let cannotCreate = ExitStatus(
        73, "EX_CANTCREAT", ["appstatectl": "an output file could not be written (`metrics --output FILE`, `screenshot -o FILE`)"])
    /// A wait ran out; trying again may work.
    public static let temporaryFailure = ExitStatus(
        75, "EX_TEMPFAIL", ["appstatectl": "timeout: the daemon did not answer within `--timeout`; trying again may work"])
    /// The other side did not speak the protocol.
    public static let protocolError = ExitStatus(
        76, "EX_PROTOCOL", ["appstatectl": "the daemon's (or the kiosk's) reply did not follow its Varlink interface"])
    /// The configuration is wrong.
    public static let configurationError = ExitStatus(
        78, "EX_CONFIG", ["appstate-gateway": "the token file cannot be read, created or used"])

    /// Every status, in ascending order.
    public static let all: [ExitStatus] = [
        success, failure, usage, dataError, unavailable, software, systemError, cannotCreate, temporaryFailure, protocolError,
        configurationError,
    ]
}
