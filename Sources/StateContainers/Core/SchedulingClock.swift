/// A clock that runs main-actor work after a delay itself, as a run loop's timers do.
///
/// A ``Window`` takes its animated transitions' durations on its clock. On a plain clock it
/// waits in a main-actor task, which needs the main queue to be served; a program whose main
/// actor runs elsewhere (an event loop on the main thread) gives its windows a scheduling
/// clock instead, and tests give a ``ManualClock``.
public protocol SchedulingClock: Clock where Duration == Swift.Duration {
    /// Runs `action` on the main actor once `duration` has passed on this clock.
    /// - Parameters:
    ///   - duration: How long to wait.
    ///   - action: What to run then.
    @MainActor func schedule(after duration: Duration, _ action: @escaping @MainActor () -> Void)
}
