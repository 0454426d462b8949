import AppStateCore
import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import ArgumentParser
import Glibc

/// The options every command takes: which daemon, which tree, how long to wait, and
/// whether to print JSON.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's socket.",
            discussion: """
                Default: $APPSTATE_SOCKET, else /run/appstate/io.appstate for root and \
                $XDG_RUNTIME_DIR/appstate/io.appstate for other users.
                """,
            valueName: "path"
        ),
        completion: .file()
    )
    var socket: String?

    @Option(
        help: ArgumentHelp("The tree to act on; the daemon's first tree by default.", valueName: "name"),
        completion: Completion.trees
    )
    var tree: String?

    @Option(help: ArgumentHelp("How long to wait for each answer of the daemon.", valueName: "seconds"))
    var timeout: Double = 5

    @Flag(help: "Print the daemon's reply as one line of JSON.")
    var json = false

    func validate() throws {
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds, not \(Formatting.number(timeout))")
        }
    }

    /// The socket to connect to: `--socket`, `$APPSTATE_SOCKET`, or the default.
    /// - Throws: ``CtlError`` (exit status 64) when none is given and there is no default.
    var socketPath: String {
        get throws(CtlError) {
            try SocketLocation.resolve(option: socket, environment: environment(SocketLocation.environmentVariable))
        }
    }

    /// Connects to the daemon and runs `body` with the connection. Every failure, from
    /// connecting to the last reply, is reported as one sentence on standard error and
    /// ends the command with its `sysexits.h` status.
    /// - Parameter body: The calls to make.
    /// - Returns: What `body` returns.
    func withClient<Result>(_ body: (VarlinkClient) throws -> Result) throws -> Result {
        let limit = Duration.seconds(timeout)
        do {
            return try body(VarlinkClient(path: socketPath, timeout: limit))
        } catch {
            let failure = CtlError(error, context: CtlError.Context(timeout: limit))
            Console.error(failure.message)
            throw ExitCode(failure.exitCode)
        }
    }

    /// Prints a reply: as JSON with `--json`, else as `human` (nothing when `nil`, which
    /// is how changes without a result stay quiet, as Unix tools do).
    /// - Parameters:
    ///   - reply: The daemon's reply.
    ///   - human: The text for people.
    func emit(_ reply: some VarlinkObject, human: @autoclosure () -> String?) {
        if json {
            Console.output(JSONValue.object(reply.parameters).jsonText)
        } else if let text = human() {
            Console.output(text)
        }
    }
}

/// Reads an environment variable without Foundation, which would cost start-up time.
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
