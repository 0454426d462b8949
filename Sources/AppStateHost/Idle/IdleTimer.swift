/// The clock idle steps are timed on: monotonic, readable on any thread (a connection's, for
/// `ReportActivity`), with timers that run on the main actor. The daemon's runs its timers on
/// its event loop; tests advance a manual clock.
package protocol IdleTimer: Sendable {
    /// The time since the timer was made; it never goes back.
    var now: Duration { get }

    /// Runs `action` on the main actor once `delay` has passed.
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - action: What to run then.
    @MainActor func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void)
}
