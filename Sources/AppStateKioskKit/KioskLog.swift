import Glibc

/// appstate-kiosk's messages, one line each on stderr, which systemd puts in the journal; the
/// `<N>` prefix is the line's syslog priority, which journald reads (`SyslogLevelPrefix=`).
public struct KioskLog: Sendable {
    private let prefix: Bool

    /// A log that writes priority prefixes when stderr is the journal (`$JOURNAL_STREAM`).
    public init() {
        prefix = getenv("JOURNAL_STREAM") != nil
    }

    /// Something the operator may want to know.
    /// - Parameter message: The message.
    public func info(_ message: String) {
        write(6, message)
    }

    /// Something failed and was dealt with.
    /// - Parameter message: The message.
    public func warn(_ message: String) {
        write(4, message)
    }

    /// appstate-kiosk cannot go on.
    /// - Parameter message: The message.
    public func error(_ message: String) {
        write(3, message)
    }

    private func write(_ priority: Int, _ message: String) {
        let line = Array(((prefix ? "<\(priority)>" : "") + "appstate-kiosk: \(message)\n").utf8)
        _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
