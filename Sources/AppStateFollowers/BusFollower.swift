import Glibc
import Logging
import Synchronization

/// Follows one ``BusSource`` on a thread of its own, so that sd-bus never blocks the event
/// loop or the main actor: it connects, installs the source's match rules, reads the whole
/// state, then dispatches signals as they come, waiting in `sd_bus_wait` in between. When
/// the bus cannot be reached or the connection breaks it says so once in the log and in its
/// ``status``, and tries again with a ``Backoff``.
package final class BusFollower: Sendable {
    /// How long the thread waits in one `sd_bus_wait` (or one slice of a backoff), and so
    /// how late at most it notices ``stop()``.
    static let stopLatency: Duration = .milliseconds(200)

    private struct State {
        var condition: FollowerCondition
        var finished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// The follower's name, e.g. `logind seat0`.
    package let name: String
    private let state: Mutex<State>
    private let stopping = Atomic(false)
    // Used only on the follower's thread once it started; the reference is kept here so
    // that the thread can be handed it.
    private nonisolated(unsafe) let source: any BusSource
    private let logger: Logger

    /// Creates a follower; nothing runs before ``start()``.
    /// - Parameters:
    ///   - source: What to follow; from then on used only on the follower's thread.
    ///   - logger: Where changes of the connection go.
    init(_ source: any BusSource, logger: Logger) {
        self.name = source.name
        self.source = source
        self.logger = logger
        state = Mutex(State(condition: .disconnected(BusFollower.connecting)))
    }

    /// Where the follower stands now.
    package var status: FollowerCondition { state.withLock { $0.condition } }

    /// Starts the follower's thread.
    /// - Throws: ``BusError`` when no thread can be created.
    package func start() throws(BusError) {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let follower = Unmanaged<BusFollower>.fromOpaque(context).takeRetainedValue()
                follower.run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw BusError(.connectionFailed, "cannot start the thread of \(name)", result: -result)
        }
        pthread_detach(thread)
    }

    /// Stops the thread and waits for it to close its connection.
    package func stop() async {
        stopping.store(true, ordering: .releasing)
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.finished { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// The detail before the first connection was tried.
    private static let connecting = "connecting"

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        var backoff = Backoff()
        while !isStopping {
            do {
                let connection = try BusConnection(source.bus)
                for rule in source.matchRules { try connection.addMatch(rule) }
                report(try source.resynchronize(on: connection))
                backoff.reset()
                try follow(on: connection)
            } catch {
                let delay = backoff.nextDelay()
                report(.disconnected("\(error); trying again"))
                sleep(for: delay)
            }
        }
        let waiter = state.withLock { state in
            state.finished = true
            return state.waiter
        }
        waiter?.resume()
    }

    /// Dispatches signals until the connection breaks or the follower stops.
    private func follow(on connection: BusConnection) throws(BusError) {
        let clock = ContinuousClock()
        var refreshed = clock.now
        while !isStopping {
            if let interval = source.refreshInterval, clock.now - refreshed >= interval {
                refreshed = clock.now
                if let condition = try source.refresh(on: connection) { report(condition) }
            }
            let signals = try connection.process()
            if connection.unreadableSignals > 0 {
                // Debug, not warning: a peer that floods malformed signals must not flood the journal.
                logger.debug("\(name): ignored \(connection.unreadableSignals) unreadable signal(s)")
            }
            if !signals.isEmpty, let condition = try source.handle(signals, on: connection) { report(condition) }
            if !connection.hasMore { try connection.wait(Self.stopLatency) }
        }
    }

    /// Records where the follower stands, and logs it when it connects or disconnects:
    /// one line per change, not one per retry.
    private func report(_ condition: FollowerCondition) {
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

    /// A detail without its retry note, to compare two failures.
    private static func reason(_ detail: String) -> Substring {
        detail.split(separator: ";", maxSplits: 1).first ?? Substring(detail)
    }

    private func sleep(for delay: Duration) {
        var remaining = delay
        while remaining > .zero, !isStopping {
            let slice = min(remaining, Self.stopLatency)
            let (seconds, attoseconds) = slice.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            nanosleep(&request, nil)
            remaining -= slice
        }
    }
}
