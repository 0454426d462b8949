import AppStateCore
import AppStateIPC

/// A failure of an `appstatectl` command as the command reports it: one sentence for
/// standard error and the `sysexits.h` status to exit with.
///
/// Error replies of the daemon become sentences built from their parameters, e.g.
/// `session/home/pages has 3 pages; 42 is out of range` (status 1); a daemon that cannot
/// be reached is named by its socket, e.g. `appstated is not running:
/// /run/appstate/io.appstate does not exist` (status 69); a daemon too slow to answer
/// gives status 75.
public struct CtlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the command was doing, so that a sentence can say what to do instead.
    public struct Context: Hashable, Sendable {
        /// The user a `login` tried to log in, for the `--switch` hint.
        public var user: String?
        /// The time limit of each answer, for the timeout sentence.
        public var timeout: Duration?

        /// Creates a context.
        /// - Parameters:
        ///   - user: The user a `login` tried to log in.
        ///   - timeout: The time limit of each answer.
        public init(user: String? = nil, timeout: Duration? = nil) {
            self.user = user
            self.timeout = timeout
        }
    }

    /// The sentence for standard error, without a program-name prefix.
    public var message: String
    /// The exit status (see ``ExitStatus``).
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
        case let reply as VarlinkError: self.init(reply: reply, context: context)
        case let connection as VarlinkClientError: self.init(connection: connection, context: context)
        case let noDefault as DefaultSocketPathError:
            self.init(
                message:
                    "no socket given, and \(noDefault.reason), so uid \(noDefault.effectiveUserID) has no default socket; pass --socket PATH or set \(SocketLocation.environmentVariable)",
                exitCode: ExitStatus.usage
            )
        default: self.init(message: String(describing: error), exitCode: ExitStatus.software)
        }
    }

    /// The sentence, as `Error` values print.
    public var description: String { message }

    private init(reply error: VarlinkError, context: Context) {
        let text = { (key: String) -> String in
            switch error.parameters[key] {
            case .string(let value)?: value
            case let value?: value.jsonText
            case nil: "?"
            }
        }
        var exitCode = ExitStatus.failure
        let message: String
        switch AppStateErrorName(rawValue: error.name) {
        case .noSuchTree?:
            message = "no tree named \(text("tree")) (appstatectl status lists the trees)"
        case .noSuchNode?:
            message = "no node at \(text("path"))"
        case .wrongContainerType?:
            message = "\(text("path")) is \(article(text("actual"))), not \(article(text("expected")))"
        case .invalidTransition?:
            message = "cannot change \(text("path")): \(text("reason"))"
        case .alreadyLoggedIn?:
            let switchHint = context.user.map { "use --switch to log in as \($0)" } ?? "use --switch to replace them"
            message = "\(text("user")) is already logged in (\(switchHint))"
        case .outOfRange?:
            let count = error.parameters["count"]?.intValue ?? 0
            message = "\(text("path")) has \(Formatting.count(count, "page")); \(text("index")) is out of range"
        case .noSuchChild?:
            message = "\(text("path")) has no child named \(text("id"))"
        case .noSuchPresentation?:
            message = "the tree \(text("tree")) has no presentation named \(text("id")) (its tree file lists them under presentations)"
        case .alreadyPresenting?:
            message = "\(text("path")) already presents \(text("presented")) (appstatectl dismiss first)"
        case .transitionInProgress?:
            message = "\(text("path")) is in the middle of a transition; try again when it has finished"
        case .tooManyConnections?:
            // The daemon closes the connection after this reply: it cannot be reached now.
            exitCode = ExitStatus.unavailable
            message = "appstated is serving its maximum of \(text("limit")) connections; try again later"
        case .messageTooLarge?:
            message = "the request is larger than appstated accepts (at most \(text("limit")) bytes)"
        case .watcherTooSlow?:
            message = "appstated ended the watch because its output was not read fast enough (\(text("queued")) changes were waiting)"
        case .storageFailure?:
            message = "appstated could not save the change, so it did not make it: \(text("reason"))"
        case .sessionOwnedByLogind?:
            message =
                "the tree \(text("tree")) follows logind on \(text("seat")): log in, out, lock and unlock there (for example with the greeter or loginctl)"
        case .windowOwnedByOutput?:
            let output = error.parameters["output"] == nil ? "the compositor's first output" : "the output \(text("output"))"
            message = "the tree \(text("tree")) follows \(output): its size is the output's (change it in the compositor, e.g. with swaymsg output)"
        case .noKeyboardFollowed?:
            // The reason says whether appstated runs without --follow-osk or finds no keyboard.
            message = "appstated has no on-screen keyboard to ask: \(text("reason"))"
        case .keyboardRequestFailed?:
            message = "\(text("keyboard")) did not do what was asked: \(text("reason"))"
        case .noKiosk?:
            message = "no appstate-kiosk shows the tree \(text("tree")) (is it running, and reporting to this appstated?)"
        case .invalidValue?:
            message = "invalid \(text("parameter")): \(text("reason"))"
        case nil:
            message = CtlError.serviceSentence(error, text: text)
        }
        self.init(message: message, exitCode: exitCode)
    }

    /// The `org.varlink.service` errors; for a well-formed request from this tool most of
    /// them mean that the daemon speaks another version of the interface.
    private static func serviceSentence(_ error: VarlinkError, text: (String) -> String) -> String {
        let versionHint = "(are appstatectl and appstated the same version?)"
        switch VarlinkServiceErrorName(rawValue: error.name) {
        case .permissionDenied?:
            return "permission denied: your user may not change appstated's state (ask to be added to the appstate group)"
        case .interfaceNotFound?:
            return "appstated does not provide the interface \(text("interface"))"
        case .methodNotFound?:
            return "appstated does not know the method \(text("method")) \(versionHint)"
        case .methodNotImplemented?:
            return "appstated does not implement the method \(text("method")) \(versionHint)"
        case .invalidParameter?:
            return "appstated rejected the parameter \(text("parameter")) \(versionHint)"
        case .expectedMore?:
            return "appstated expects this call to be a stream \(versionHint)"
        case nil:
            return "appstated answered: \(error.message)"
        }
    }

    private init(connection error: VarlinkClientError, context: Context) {
        let socket = error.socketPath
        switch error.kind {
        case .timedOut:
            let limit = context.timeout.map { " within \(Formatting.seconds(Self.seconds(of: $0)))" } ?? ""
            let what = error.detail == "connect" ? "accept the connection" : "answer"
            self.init(
                message: "appstated did not \(what)\(limit) (\(socket)); try again or raise --timeout",
                exitCode: ExitStatus.temporaryFailure
            )
        case .notFound:
            self.init(message: "appstated is not running: \(socket) does not exist", exitCode: ExitStatus.unavailable)
        case .connectionRefused:
            self.init(message: "appstated is not running: \(socket): connection refused", exitCode: ExitStatus.unavailable)
        case .permissionDenied:
            self.init(
                message: "cannot reach appstated: \(socket): permission denied (ask to be added to the appstate group)",
                exitCode: ExitStatus.unavailable
            )
        case .invalidAddress:
            self.init(
                message: "cannot reach appstated: \(socket): \(error.detail ?? "not a socket address")",
                exitCode: ExitStatus.unavailable
            )
        case .connectionClosed:
            self.init(message: "appstated closed the connection (\(socket))", exitCode: ExitStatus.unavailable)
        case .protocolViolation, .invalidReply:
            self.init(
                message: "appstated sent a reply appstatectl does not understand (\(socket)): \(error.detail ?? "")",
                exitCode: ExitStatus.protocolError
            )
        case .busy:
            self.init(message: error.description, exitCode: ExitStatus.software)
        default:
            if error.isUnreachable {
                self.init(message: "cannot reach appstated: \(error.description)", exitCode: ExitStatus.unavailable)
            } else {
                self.init(message: error.description, exitCode: ExitStatus.systemError)
            }
        }
    }

    private static func seconds(of duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// "a MenuController", "an InputController": the article a kind needs in a sentence.
private func article(_ noun: String) -> String {
    let vowels: Set<Character> = ["A", "E", "I", "O", "U", "a", "e", "i", "o", "u"]
    return (noun.first.map(vowels.contains) ?? false ? "an " : "a ") + noun
}
