import Glibc

/// Runs blocking socket work on a thread of its own, so that async callers never block a
/// thread of Swift's cooperative pool (a `Watch` stream can wait for hours).
enum BlockingThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread. If no thread can be created, `body` runs on
    /// the caller's thread instead: slower to give way, but never lost.
    static func run(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, work.toOpaque())
        if result == 0 {
            pthread_detach(thread)
        } else {
            work.takeRetainedValue().body()
        }
    }
}
