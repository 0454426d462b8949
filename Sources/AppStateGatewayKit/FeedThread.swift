import Glibc

/// Starts a thread of its own for a feed's upstream `Watch`, which blocks on the daemon's
/// socket for as long as the feed lives: not a thread of Swift's cooperative pool, nor of
/// the event loops, and no hop through either between a reply and the pages' streams.
enum FeedThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    /// - Returns: Whether the thread started; when it cannot, nothing runs.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
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
            return false
        }
        pthread_detach(thread)
        return true
    }
}
