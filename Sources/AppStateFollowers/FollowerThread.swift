import Glibc

/// Starts a follower's thread: a detached POSIX thread of its own, so that a follower's
/// blocking reads and waits never hold the event loop, the main actor or the cooperative pool.
enum FollowerThread {
    private final class Body {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }

    /// Runs `body` on a new detached thread.
    /// - Returns: 0, or the error number `pthread_create` returned.
    static func start(_ body: @escaping @Sendable () -> Void) -> CInt {
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            return result
        }
        pthread_detach(thread)
        return 0
    }
}
