import AppStateIPC

/// Why `appstate-kiosk` cannot go on, with the exit status it ends with.
public struct KioskError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case browserNotFound(String)
        case browserNotStarted(String, reason: String)
        case browserExited(status: Int32)
        case browserUnresponsive(String)
        case tooManyRestarts(Int, within: Duration, last: String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The browser named by `--browser` is not an executable file, nor one on `PATH`.
    /// - Parameter executable: What was asked for.
    public static func browserNotFound(_ executable: String) -> KioskError {
        KioskError(.browserNotFound(executable))
    }

    /// The browser could not be started.
    /// - Parameters:
    ///   - executable: The browser's path.
    ///   - reason: Why, in words.
    public static func browserNotStarted(_ executable: String, reason: String) -> KioskError {
        KioskError(.browserNotStarted(executable, reason: reason))
    }

    /// The browser exited.
    /// - Parameter status: Its exit status, 128 plus the signal for one that was killed.
    public static func browserExited(status: Int32) -> KioskError {
        KioskError(.browserExited(status: status))
    }

    /// The browser did not answer its DevTools pipe as a browser does.
    /// - Parameter detail: What went wrong.
    public static func browserUnresponsive(_ detail: String) -> KioskError {
        KioskError(.browserUnresponsive(detail))
    }

    /// The browser failed again after as many restarts as the window allows: systemd's
    /// `Restart=` and the unit's start limits take over.
    /// - Parameters:
    ///   - count: The restarts allowed.
    ///   - window: The span they were counted over.
    ///   - reason: Why the last restart was needed.
    public static func tooManyRestarts(_ count: Int, within window: Duration, last reason: String) -> KioskError {
        KioskError(.tooManyRestarts(count, within: window, last: reason))
    }

    /// The exit status: ``ExitStatus/unavailable`` (69) for every case, since each leaves the
    /// screen without its browser.
    public var exitStatus: Int32 { ExitStatus.unavailable.code }

    /// The error in words, for the journal.
    public var description: String {
        switch code {
        case .browserNotFound(let executable):
            "cannot find the browser \(executable) (give its path with --browser)"
        case .browserNotStarted(let executable, let reason):
            "cannot start the browser \(executable): \(reason)"
        case .browserExited(let status) where status > 128:
            "the browser was killed by signal \(status - 128)"
        case .browserExited(let status):
            "the browser exited with status \(status)"
        case .browserUnresponsive(let detail):
            "the browser does not answer on its DevTools pipe: \(detail)"
        case .tooManyRestarts(let count, let window, let reason):
            "\(reason), and the browser was restarted \(count) times within \(window) already: leaving it to systemd"
        }
    }
}
