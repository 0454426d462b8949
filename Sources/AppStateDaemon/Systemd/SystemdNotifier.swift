import CSystemd
import Glibc

/// Tells the service manager about the daemon's life cycle through `sd_notify(3)`.
///
/// Every method is a no-op returning normally when `NOTIFY_SOCKET` is unset, so the daemon
/// calls them unconditionally whether it runs under systemd, by hand or in a test.
///
/// The environment is deliberately left in place (`unset_environment` is 0): the daemon
/// notifies for its whole life (`STATUS=`, `WATCHDOG=1`, `RELOADING=1` … `READY=1` on each
/// reload), and unsetting `NOTIFY_SOCKET` after the first message would silence the rest.
/// Children the daemon might spawn cannot abuse the inherited variables: the unit has
/// `NotifyAccess=main`, so systemd drops their messages, and `WATCHDOG_PID` names this
/// process, so ``watchdogInterval`` is `nil` in a child.
package struct SystemdNotifier: Sendable {
    /// Creates a notifier. It reads the environment on each call, not here.
    package init() {}

    /// Whether notifications go anywhere: `NOTIFY_SOCKET` is set and not empty.
    package var isEnabled: Bool {
        guard let socket = getenv("NOTIFY_SOCKET") else { return false }
        return socket.pointee != 0
    }

    /// The interval at which to call ``watchdog()``: half of `WATCHDOG_USEC`, as systemd
    /// recommends, so one late ping does not get the daemon killed.
    ///
    /// `nil` when notifications are disabled, when no watchdog is configured, when
    /// `WATCHDOG_PID` names another process (the variables were inherited), or when
    /// `WATCHDOG_USEC` is malformed.
    package var watchdogInterval: Duration? {
        guard isEnabled else { return nil }
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds / 2))
    }

    /// Reports that start-up (or a reload) has finished: `READY=1`, plus `STATUS=` when given.
    ///
    /// Send it once the socket is listening; `Type=notify` units stay "activating" until then.
    ///
    /// - Parameters:
    ///   - status: A one-line human-readable status shown by `systemctl status`.
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/notifyFailed``.
    package func ready(status: String? = nil) throws {
        try send(["READY=1"] + (status.map { [Self.statusAssignment($0)] } ?? []))
    }

    /// Updates the free-form status line shown by `systemctl status`: `STATUS=`.
    ///
    /// - Parameters:
    ///   - text: The status; newlines become spaces, since they separate assignments.
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/notifyFailed``.
    package func status(_ text: String) throws {
        try send([Self.statusAssignment(text)])
    }

    /// Reports that the daemon is draining and will exit: `STOPPING=1`.
    ///
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/notifyFailed``.
    package func stopping() throws {
        try send(["STOPPING=1"])
    }

    /// Reports that a reload has begun: `RELOADING=1` and `MONOTONIC_USEC=` (now, on
    /// `CLOCK_MONOTONIC`). Follow it with ``ready(status:)`` when the reload is done.
    ///
    /// systemd 253 and later use the timestamp to tell this reload from an older one;
    /// earlier versions ignore the extra field.
    ///
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/notifyFailed``.
    package func reloading() throws {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        try send(["RELOADING=1", "MONOTONIC_USEC=\(microseconds)"])
    }

    /// Pings the service manager's watchdog: `WATCHDOG=1`. Call it every ``watchdogInterval``
    /// from the actor whose liveness matters, so that a hung actor stops the pings.
    ///
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/notifyFailed``.
    package func watchdog() throws {
        try send(["WATCHDOG=1"])
    }

    private static func statusAssignment(_ text: String) -> String {
        "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
    }

    private func send(_ assignments: [String]) throws {
        let result = sd_notify(0, assignments.joined(separator: "\n"))
        if result < 0 {
            throw SystemdError(.notifyFailed, "sd_notify(\(assignments[0])) failed", errno: -result)
        }
    }
}
