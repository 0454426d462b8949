/// Where work for the main actor goes when it starts on another thread: a follower's, a
/// thread pool's, a task's.
///
/// A program that runs the main actor on an event loop (the process's main thread, with
/// `MainThreadEventLoop`) enters it only through its runner; nothing there may `await` the
/// main actor, since no run loop serves the main queue. Programs whose main queue is served (by `dispatchMain()` or a
/// test runner's run loop) use ``MainQueueRunner``.
public protocol MainActorRunner: Sendable {
    /// Runs `job` on the main actor soon, after what was handed over before it; never
    /// inside the call.
    /// - Parameter job: The work.
    func execute(_ job: @escaping @MainActor @Sendable () -> Void)

    /// Runs `job` on the main actor at once when the calling thread is already running it,
    /// else as ``execute(_:)`` does.
    /// - Parameter job: The work.
    func executeNowOrSoon(_ job: @escaping @MainActor @Sendable () -> Void)

    /// Runs `job` on the main actor once `delay` has passed.
    /// - Parameters:
    ///   - delay: How long to wait, on the monotonic clock.
    ///   - job: The work.
    func execute(after delay: Duration, _ job: @escaping @MainActor @Sendable () -> Void)
}

extension MainActorRunner {
    /// Runs `body` on the main actor and waits for its value, for code that is not on the
    /// main actor (a service of a service group).
    /// - Parameter body: The work.
    /// - Returns: What `body` returned.
    public func value<Value: Sendable>(_ body: @escaping @MainActor @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            execute { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on the main actor and waits for its value or error.
    /// - Parameter body: The work.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw.
    public func value<Value: Sendable>(_ body: @escaping @MainActor @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            execute { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// Runs main-actor work as tasks on the main queue, for programs whose main queue is served.
public struct MainQueueRunner: MainActorRunner {
    /// Creates the runner.
    public init() {}

    public func execute(_ job: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in job() }
    }

    public func executeNowOrSoon(_ job: @escaping @MainActor @Sendable () -> Void) {
        execute(job)
    }

    public func execute(after delay: Duration, _ job: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in
            try? await Task.sleep(for: delay)
            job()
        }
    }
}
