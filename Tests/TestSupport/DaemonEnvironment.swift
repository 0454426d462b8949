import Foundation

/// The environment for an `appstated` a test starts: this process's, without anything the
/// service manager passes a service (so that nothing leaks in from how the tests were
/// started), and with `NOTIFY_SOCKET` naming the test's datagram socket, if any.
/// - Parameters:
///   - notifySocket: The path of the socket that receives `READY=1`; nil for none.
///   - extra: More variables, which win over the inherited ones.
/// - Returns: The environment.
public func daemonEnvironment(notifySocket: String?, _ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in ["JOURNAL_STREAM", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY"] {
        environment.removeValue(forKey: key)
    }
    environment.merge(extra) { $1 }
    environment["NOTIFY_SOCKET"] = notifySocket
    return environment
}
