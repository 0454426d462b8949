import NIOConcurrencyHelpers
import ServiceLifecycle

/// Whether the daemon told systemd it is ready. The watchdog and reloads wait for it, so that
/// systemd hears `READY=1` before any `WATCHDOG=1` or `RELOADING=1`.
///
/// It is settled once: ready, or given up when the server stops before it listened. The
/// server settles it in every case, so a wait always ends.
final class Readiness: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Bool, Never>])
        case settled(isReady: Bool)
    }

    // A pthread mutex rather than Synchronization.Mutex, which ThreadSanitizer cannot see on
    // Linux (see ConnectionCounter).
    private let state = NIOLockedValueBox(State.waiting([]))

    /// Settles readiness, unless it is settled already, and resumes the waiters.
    /// - Parameter isReady: Whether the daemon is ready; false when it stops without being so.
    func settle(isReady: Bool) {
        let waiters: [CheckedContinuation<Bool, Never>] = state.withLockedValue { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .settled(isReady: isReady)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: isReady) }
    }

    /// Waits until readiness is settled, for a service of the daemon's group. When the daemon
    /// stops without being ready (the server could not listen), it returns only once the group
    /// ends the service: a service that returned first would be what the group reports ("a
    /// service has finished unexpectedly") instead of the server's error.
    /// - Returns: Whether the daemon became ready; when false, the service returns.
    func waitAsService() async -> Bool {
        guard await wait() else {
            try? await gracefulShutdown()
            return false
        }
        return true
    }

    /// Waits until readiness is settled.
    /// - Returns: Whether the daemon became ready.
    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let settled: Bool? = state.withLockedValue { state in
                switch state {
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                case .settled(let isReady):
                    return isReady
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
