import Glibc

/// Starts detached POSIX threads for work that blocks: a `Watch` stream (which can wait for
/// hours), a follower's reads, a call on the system bus. Such work must not hold a thread of
/// Swift's cooperative pool, of an event loop or of the main actor.
package enum DetachedThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    /// - Parameter body: The work.
    /// - Returns: 0, or the error number `pthread_create` returned; then nothing runs.
    package static func start(_ body: @escaping @Sendable () -> Void) -> CInt {
        let work = Unmanaged.passRetained(Work(body))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, work.toOpaque())
        guard result == 0 else {
            work.release()
            return result
        }
        pthread_detach(thread)
        return 0
    }

    /// Runs `body` on a new detached thread or, when none can be created, on the caller's:
    /// slower to give way, but never lost.
    /// - Parameter body: The work.
    package static func run(_ body: @escaping @Sendable () -> Void) {
        if start(body) != 0 { body() }
    }
}
