import AppStateIPC
import Glibc
import Logging
import Synchronization

/// Follows one ``BusSource`` on a thread of its own, so that sd-bus never blocks the event
/// loop or the main actor: it connects, installs the source's match rules, reads the whole
/// state, then dispatches signals as they come, waiting in `sd_bus_wait` in between. When
/// the bus cannot be reached or the connection breaks it says so once in the log and in its
/// ``status``, and tries again with a ``Backoff``.
package final class BusFollower: SystemFollower {
    /// How long the thread waits in one `sd_bus_wait` (or one slice of a backoff), and so
    /// how late at most it notices ``stop()``.
    static let stopLatency: Duration = .milliseconds(200)

    /// The follower's name, e.g. `logind seat0`.
    package let name: String
    private let report: FollowerReport
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
        report = FollowerReport(name: source.name, logger: logger)
    }

    /// Where the follower stands now.
    package var status: FollowerCondition { report.condition }

    /// Starts the follower's thread.
    /// - Throws: ``BusError`` when no thread can be created.
    package func start() throws(BusError) {
        let result = DetachedThread.start { self.run() }
        guard result == 0 else { throw BusError(.connectionFailed, "cannot start the thread of \(name)", result: -result) }
    }

    /// Stops the thread and waits for it to close its connection.
    package func stop() async {
        stopping.store(true, ordering: .releasing)
        await report.waitUntilFinished()
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        report.runAttempts(while: !isStopping, waiting: sleep(for:)) { backoff in
            let connection = try BusConnection(source.bus)
            for rule in source.matchRules { try connection.addMatch(rule) }
            report.report(try source.resynchronize(on: connection))
            backoff.reset()
            try follow(on: connection)
        }
    }

    /// Dispatches signals until the connection breaks or the follower stops.
    private func follow(on connection: BusConnection) throws(BusError) {
        let clock = ContinuousClock()
        var refreshed = clock.now
        while !isStopping {
            if let interval = source.refreshInterval, clock.now - refreshed >= interval {
                refreshed = clock.now
                if let condition = try source.refresh(on: connection) { report.report(condition) }
            }
            let signals = try connection.process()
            if connection.unreadableSignals > 0 {
                // Debug, not warning: a peer that floods malformed signals must not flood the journal.
                logger.debug("\(name): ignored \(connection.unreadableSignals) unreadable signal(s)")
            }
            if !signals.isEmpty, let condition = try source.handle(signals, on: connection) { report.report(condition) }
            if !connection.hasMore {
                try connection.wait(Self.stopLatency)
                if let condition = try source.tryAgain(on: connection) { report.report(condition) }
            }
        }
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
