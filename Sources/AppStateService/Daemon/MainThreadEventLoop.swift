#if canImport(Glibc)
import Glibc
#endif
import CDispatchMainQueue
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Synchronization

/// The daemon's one thread of work: the process's main thread runs as the event loop of
/// every connection and, between its I/O events, serves the main queue, where the main actor
/// (and so the trees) runs.
///
/// A change then goes from the call that made it to its watchers' sockets on one thread: no
/// other thread is woken on the way, and the code and data of the whole path stay in one
/// core's caches. Paced like a UI (one change every frame, idle between), each wake-up of a
/// sleeping thread and each cold cache costs more than the work itself.
public enum MainThreadEventLoop {
    /// Runs `body` on the main actor with the calling thread as its event loop, and returns
    /// once `body` has finished and the loop has stopped.
    ///
    /// Call it from the main thread, which libdispatch binds the main queue to, and never
    /// while another call runs; the program must not also call `dispatchMain()` or run an
    /// async `main`, which would hand the main queue to another thread.
    /// - Parameter body: The program, given the loop to run its channels on.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or the error that kept the main queue from being served.
    public static func run<Value: Sendable>(_ body: @escaping @MainActor @Sendable (any EventLoop) async throws -> Value) throws -> Value {
        let outcome = NIOLockedValueBox<Result<Value, any Error>>(.failure(EventLoopError.shutdown))
        MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
            loopThread.store(UInt(pthread_self()), ordering: .relaxed)
            serveMainQueue(on: loop).whenComplete { served in
                guard case .failure(let error) = served else {
                    Task { @MainActor in
                        let result: Result<Value, any Error>
                        do {
                            result = .success(try await body(loop))
                        } catch {
                            result = .failure(error)
                        }
                        outcome.withLockedValue { $0 = result }
                        loop.shutdownGracefully { _ in }
                    }
                    return
                }
                outcome.withLockedValue { $0 = .failure(error) }
                loop.shutdownGracefully { _ in }
            }
        }
        loopThread.store(0, ordering: .relaxed)
        return try outcome.withLockedValue { $0 }.get()
    }

    /// Whether the calling thread is the one ``run(_:)`` runs as the event loop, which serves
    /// the main queue: code there may assume the main actor's isolation.
    public static var isCurrent: Bool {
        loopThread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// The thread inside ``run(_:)``, or 0.
    private static let loopThread = Atomic<UInt>(0)

    /// Watches libdispatch's main-queue eventfd on the loop, and runs the main queue whenever
    /// it is signalled. A duplicate of the descriptor goes to the channel, which closes it
    /// with the loop; libdispatch keeps its own.
    private static func serveMainQueue(on loop: any EventLoop) -> EventLoopFuture<Void> {
        let handle = dup(_dispatch_get_main_queue_handle_4CF())
        guard handle >= 0 else { return loop.makeFailedFuture(IOError(errnoCode: errno, reason: "dup(main queue eventfd)")) }
        return NIOPipeBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(MainQueueDrainer()) }
            }
            .takingOwnershipOfDescriptor(input: handle)
            .map { _ in
                // Whatever was queued before the eventfd existed signalled nothing.
                _dispatch_main_queue_callback_4CF(nil)
            }
            .flatMapErrorThrowing { error in
                close(handle)
                throw error
            }
    }
}

/// Runs the main queue once the loop has read the eventfd's signals (the read resets it).
private final class MainQueueDrainer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func channelReadComplete(context: ChannelHandlerContext) {
        _dispatch_main_queue_callback_4CF(nil)
    }
}
