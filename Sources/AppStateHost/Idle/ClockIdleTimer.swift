import StateContainers

/// An ``IdleTimer`` on a ``SchedulingClock``: the daemon's `RunnerClock`, or a `ManualClock`
/// in tests, so that idle steps fire when the test advances it.
package struct ClockIdleTimer<Base: SchedulingClock & Sendable>: IdleTimer {
    private let clock: Base
    private let origin: Base.Instant

    /// A timer on `clock`, whose ``now`` counts from this moment.
    /// - Parameter clock: The clock.
    package init(_ clock: Base) {
        self.clock = clock
        self.origin = clock.now
    }

    package var now: Duration { origin.duration(to: clock.now) }

    @MainActor package func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) {
        clock.schedule(after: delay, action)
    }
}
