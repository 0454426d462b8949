import ServicePorts
import StateContainers

/// The monotonic clock, with its timers run by a ``MainActorRunner``: the windows' clock in
/// the daemon, whose main actor runs on its event loop, so that an animated transition ends
/// on the loop rather than in a task waiting for a main queue nobody serves.
package struct RunnerClock: SchedulingClock {
    package typealias Instant = ContinuousClock.Instant

    private let runner: any MainActorRunner
    private let clock = ContinuousClock()

    /// A clock whose timers `runner` runs.
    /// - Parameter runner: Where the timers' actions run.
    package init(runner: any MainActorRunner) {
        self.runner = runner
    }

    package var now: Instant { clock.now }

    package var minimumResolution: Duration { clock.minimumResolution }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await clock.sleep(until: deadline, tolerance: tolerance)
    }

    package func schedule(after duration: Duration, _ action: @escaping @MainActor () -> Void) {
        runner.execute(after: duration, action)
    }
}
