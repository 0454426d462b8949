import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Varlink

/// The daemon's one thread of work: the process's main thread runs as the event loop of every
/// connection and, as ``Runner``, the main actor (and so the trees) between its I/O events.
///
/// A change then goes from the call that made it to its watchers' sockets on one thread: no
/// other thread is woken on the way, and the code and data of the whole path stay in one
/// core's caches. Paced like a UI (one change every frame, idle between), each wake-up of a
/// sleeping thread and each cold cache costs more than the work itself.
///
/// The main actor is entered only through the runner, with `MainActor.assumeIsolated` on the
/// main thread; the main queue is never served, so nothing in such a program may `await` the
/// main actor or start a main-actor task.
public enum MainThreadEventLoop {
    /// Main-actor work as jobs of the event loop on the main thread.
    public struct Runner: MainActorRunner {
        /// The loop, which runs on the main thread.
        public let eventLoop: any EventLoop

        public func execute(_ job: @escaping @MainActor @Sendable () -> Void) {
            eventLoop.execute { MainActor.assumeIsolated(job) }
        }

        public func executeNowOrSoon(_ job: @escaping @MainActor @Sendable () -> Void) {
            guard eventLoop.inEventLoop else { return execute(job) }
            MainActor.assumeIsolated(job)
        }

        public func execute(after delay: Duration, _ job: @escaping @MainActor @Sendable () -> Void) {
            eventLoop.scheduleTask(in: TimeAmount(delay)) { MainActor.assumeIsolated(job) }
        }
    }

    /// Runs `body` with the calling thread, which must be the main thread, as an event loop
    /// whose runner is the only way into the main actor; returns once `body` has finished and
    /// the loop has stopped.
    /// - Parameter body: The program: given the loop to run its channels on and the runner,
    ///   it runs as a task off the main actor.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw.
    public static func run<Value: Sendable>(
        _ body: @escaping @Sendable (any EventLoop, Runner) async throws -> Value
    ) throws -> Value {
        let outcome = NIOLockedValueBox<Result<Value, any Error>>(.failure(EventLoopError.shutdown))
        MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
            Task.detached {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await body(loop, Runner(eventLoop: loop)))
                } catch {
                    result = .failure(error)
                }
                outcome.withLockedValue { $0 = result }
                loop.shutdownGracefully { _ in }
            }
        }
        return try outcome.withLockedValue { $0 }.get()
    }
}
