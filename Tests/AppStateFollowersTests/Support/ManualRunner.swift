import ServicePorts
import Synchronization

/// A runner whose jobs wait until the test runs them, on the main actor: what the followers
/// hand over is taken at a point the test chooses.
final class ManualRunner: MainActorRunner {
    private let jobs = Mutex<[@MainActor @Sendable () -> Void]>([])

    func execute(_ job: @escaping @MainActor @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
    }

    func executeNowOrSoon(_ job: @escaping @MainActor @Sendable () -> Void) {
        execute(job)
    }

    func execute(after delay: Duration, _ job: @escaping @MainActor @Sendable () -> Void) {
        execute(job)
    }

    /// Runs the jobs waiting, and those they hand over, until none is left.
    @MainActor func runAll() {
        while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job()
        }
    }
}
