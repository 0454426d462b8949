import AppStateCore
import AppStateIPC
import AppStateRendering

/// A failure of an `appstatectl` command as the command reports it: one sentence for
/// standard error and the `sysexits.h` status to exit with.
///
/// Error replies of the daemon become the sentence and the exit status of their
/// ``ErrorCatalogue`` entry, e.g. `session/home/pages has 3 pages; 42 is out of range`
/// (status 1); a daemon that cannot
/// be reached is named by its socket, e.g. `appstated is not running:
/// /run/appstate/io.appstate does not exist` (status 69); a daemon too slow to answer
/// gives status 75.
public struct CtlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the command was doing, so that a sentence can say what to do instead.
    public struct Context: Hashable, Sendable {
        /// The time limit of each answer, for the timeout sentence.
        public var timeout: Duration?

        /// Creates a context.
        /// - Parameter timeout: The time limit of each answer.
        public init(timeout: Duration? = nil) {
            self.timeout = timeout
        }
    }

    /// The sentence for standard error, without a program-name prefix.
    public var message: String
    /// The exit status, one of ``ExitStatus/all``.
    public var exitCode: Int32

    /// Creates a failure.
    /// - Parameters:
    ///   - message: The sentence for standard error.
    ///   - exitCode: The exit status.
    public init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Puts any error a command can meet into words.
    /// - Parameters:
    ///   - error: A ``VarlinkError`` reply, a ``VarlinkClientError``, a
    ///     ``DefaultSocketPathError``, or another `CtlError`.
    ///   - context: What the command was doing.
    public init(_ error: any Error, context: Context = Context()) {
        switch error {
        case let failure as CtlError: self = failure
        case let reply as VarlinkError: self.init(reply: reply)
        case let connection as VarlinkClientError: self.init(connection: connection, context: context)
        case let noDefault as DefaultSocketPathError:
            self.init(
                message:
                    "no socket given, and \(noDefault.reason), so uid \(noDefault.effectiveUserID) has no default socket; pass --socket PATH or set \(SocketLocation.environmentVariable)",
                exitCode: ExitStatus.usage.code
            )
        default: self.init(message: String(describing: error), exitCode: ExitStatus.software.code)
        }
    }

    /// The sentence, as `Error` values print.
    public var description: String { message }

    /// The sentence and exit status of the error's ``ErrorCatalogue`` entry; an error no
    /// catalogued interface declares is a refusal, shown by name.
    private init(reply error: VarlinkError) {
        guard let entry = ErrorCatalogue.entry(for: error.name) else {
            self.init(message: "appstated answered: \(error.message)", exitCode: ExitStatus.failure.code)
            return
        }
        self.init(message: entry.sentence(for: error), exitCode: entry.exitStatus.code)
    }

    private init(connection error: VarlinkClientError, context: Context) {
        let socket = error.socketPath
        switch error.kind {
        case .timedOut:
            let limit = context.timeout.map { " within \(Formatting.seconds(Self.seconds(of: $0)))" } ?? ""
            let what = error.detail == "connect" ? "accept the connection" : "answer"
            self.init(
                message: "appstated did not \(what)\(limit) (\(socket)); try again or raise --timeout",
                exitCode: ExitStatus.temporaryFailure.code
            )
        case .notFound:
            self.init(message: "appstated is not running: \(socket) does not exist", exitCode: ExitStatus.unavailable.code)
        case .connectionRefused:
            self.init(message: "appstated is not running: \(socket): connection refused", exitCode: ExitStatus.unavailable.code)
        case .permissionDenied:
            self.init(
                message: "cannot reach appstated: \(socket): permission denied (ask to be added to the appstate group)",
                exitCode: ExitStatus.unavailable.code
            )
        case .invalidAddress:
            self.init(
                message: "cannot reach appstated: \(socket): \(error.detail ?? "not a socket address")",
                exitCode: ExitStatus.unavailable.code
            )
        case .connectionClosed:
            self.init(message: "appstated closed the connection (\(socket))", exitCode: ExitStatus.unavailable.code)
        case .protocolViolation, .invalidReply:
            self.init(
                message: "appstated sent a reply appstatectl does not understand (\(socket)): \(error.detail ?? "")",
                exitCode: ExitStatus.protocolError.code
            )
        case .busy:
            self.init(message: error.description, exitCode: ExitStatus.software.code)
        default:
            if error.isUnreachable {
                self.init(message: "cannot reach appstated: \(error.description)", exitCode: ExitStatus.unavailable.code)
            } else {
                self.init(message: error.description, exitCode: ExitStatus.systemError.code)
            }
        }
    }

    private static func seconds(of duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
