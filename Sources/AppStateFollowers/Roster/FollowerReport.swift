import Logging
import Synchronization

/// Where a follower's thread stands, for ``SystemFollower/status`` and the log, and the
/// handshake by which ``SystemFollower/stop()`` waits for the thread to end: shared by every
/// follower so that they log alike, one line per change and not one per retry.
final class FollowerReport: Sendable {
    private struct State {
        var condition = FollowerCondition.disconnected(FollowerReport.connecting)
        var finished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// The detail before the first connection was tried.
    static let connecting = "connecting"

    private let name: String
    private let logger: Logger
    private let state = Mutex(State())

    /// Creates the report of a follower that has not tried to connect yet.
    /// - Parameters:
    ///   - name: The follower's name, for the log.
    ///   - logger: Where changes of the connection go.
    init(name: String, logger: Logger) {
        self.name = name
        self.logger = logger
    }

    /// Where the follower stands.
    var condition: FollowerCondition { state.withLock { $0.condition } }

    /// Records where the follower stands, and logs it when it connects or disconnects:
    /// one line per change, not one per retry.
    func report(_ condition: FollowerCondition) {
        let previous = state.withLock { state in
            defer { state.condition = condition }
            return state.condition
        }
        guard previous != condition else { return }
        switch (previous.isConnected, condition.isConnected) {
        case (false, true):
            logger.info("\(name): \(condition.detail)")
        case (true, true):
            // What it follows changed; the change's event is logged where it is applied.
            break
        case (true, false):
            logger.warning("\(name) disconnected: \(condition.detail)")
        case (false, false):
            // A retry that fails the same way says nothing new; another reason is worth a line.
            if previous.detail == Self.connecting || Self.reason(previous.detail) != Self.reason(condition.detail) {
                logger.warning("\(name) disconnected: \(condition.detail)")
            }
        }
    }

    /// Runs a follower's thread: `attempt` connects and follows until the connection breaks;
    /// each failure is reported and waited out, longer each time until `attempt` resets the
    /// backoff once connected. Once `isRunning` says no, ``finish()``.
    /// - Parameters:
    ///   - isRunning: Whether to try (again).
    ///   - wait: Waits out a delay, or less if the follower stops meanwhile.
    ///   - attempt: One connection, followed until it breaks.
    func runAttempts(while isRunning: @autoclosure () -> Bool, waiting wait: (Duration) -> Void, _ attempt: (inout Backoff) throws -> Void) {
        var backoff = Backoff()
        while isRunning() {
            do {
                try attempt(&backoff)
            } catch {
                let delay = backoff.nextDelay()
                report(.disconnected("\(error); trying again"))
                wait(delay)
            }
        }
        finish()
    }

    /// Called by the thread as it ends: a ``waitUntilFinished()`` returns.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once the thread called ``finish()``.
    func waitUntilFinished() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.finished { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// A detail without its retry note, to compare two failures.
    private static func reason(_ detail: String) -> Substring {
        detail.split(separator: ";", maxSplits: 1).first ?? Substring(detail)
    }
}
