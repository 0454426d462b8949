import AppStateCore
import AppStateIPC

/// One line per `Watch` reply, for `appstatectl watch`:
///
/// ```
/// 2026-11-21T21:59:10 Snapshot session/login/login-form
/// 2026-11-21T21:59:18 Login session/home/pages/overview
/// 2026-11-21T21:59:25 keyboard.willShow session/login/login-form {"duration":0.25}
/// ```
///
/// The timestamp, then what happened (the method or bus notification; `Snapshot` for
/// the first reply, which carries the tree as it is), then the deepest current path
/// after it, then the notification's userInfo as JSON when it has any.
public enum WatchFormatter {
    /// The word for the first reply, which reports no change but the state to start from.
    public static let snapshotName = "Snapshot"

    /// Formats a reply.
    /// - Parameters:
    ///   - reply: A `Watch` reply.
    ///   - timestamp: When it arrived, e.g. from ``LocalTime/now()``.
    /// - Returns: The line, without a newline.
    public static func line(for reply: Watch.Reply, timestamp: String) -> String {
        guard let event = reply.event else {
            return "\(timestamp) \(snapshotName) \(reply.root?.deepestCurrentPath ?? "")"
        }
        var line = "\(timestamp) \(event.name) \(event.current)"
        if let userInfo = event.userInfo, !userInfo.isEmpty {
            line += " " + JSONValue.object(userInfo).jsonText
        }
        return line
    }
}
