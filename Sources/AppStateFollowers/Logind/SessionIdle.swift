import Glibc

/// Whether logind says a session is idle (`IdleHint`), and since when.
package enum SessionIdle: Hashable, Sendable {
    /// Someone uses the session.
    case active
    /// Nobody has used the session since a moment on `CLOCK_MONOTONIC`, in microseconds
    /// (`IdleSinceHintMonotonic`; 0 when logind does not say, taken as now).
    case idle(sinceMonotonicMicroseconds: UInt64)

    /// How long the session has been idle as of now; nil when it is active.
    var idleFor: Duration? {
        guard case .idle(let since) = self else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard since > 0, nowMicroseconds > since else { return .zero }
        return .microseconds(nowMicroseconds - since)
    }
}
