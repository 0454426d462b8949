#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Accepts the connections of a listening socket and hands each to an event loop as a NIO
/// channel, telling the channel's set-up its descriptor.
///
/// NIO's own server channel keeps the descriptors it accepts to itself; the daemon needs them
/// so that a watcher's events can go to its socket in one system call rather than through the
/// channel's pipeline (see ``WatcherConnection``), which with a thousand watchers cost as much
/// as the writes themselves.
final class VarlinkAcceptor: Sendable {
    /// Sets up a new connection's pipeline, on its event loop.
    typealias Initializer = @Sendable (_ channel: any Channel, _ descriptor: CInt) throws -> Void
    /// Takes one connection off a listening socket, as accept(2) does: its descriptor, or -1
    /// with `errno` set.
    typealias Accept = @Sendable (_ listener: CInt) -> CInt

    private let descriptor: CInt
    private let eventLoops: any EventLoopGroup
    private let initializer: Initializer
    private let accept: Accept
    private let logger: Logger
    private let queue = DispatchQueue(label: "appstated.accept")
    /// Set while accepting.
    private let source = NIOLockedValueBox<ReadSource?>(nil)
    /// Whether the last `accept` failed for want of descriptors or memory: such a failure is
    /// logged once, not at every retry.
    private let exhausted = NIOLockedValueBox(false)

    /// A dispatch source, which libdispatch lets any thread use; Swift's Dispatch on Linux
    /// does not declare it `Sendable`.
    private struct ReadSource: @unchecked Sendable {
        let source: any DispatchSourceRead
    }

    /// How long accepting pauses when the process or the system is out of descriptors or
    /// memory: the connection stays in the backlog, and the socket stays readable, so retrying
    /// at once would spin.
    static let pauseWhenExhausted: TimeAmount = .milliseconds(100)

    /// The most connections accepted before the event loop sets them up; NIO's own server
    /// channel accepts as many per read.
    static let batch = 4

    /// Creates an acceptor; nothing is accepted until ``start()``.
    /// - Parameters:
    ///   - descriptor: A listening, non-blocking stream socket; the acceptor closes it when it stops.
    ///   - eventLoops: The loops the connections are spread over; NIO's own (`MultiThreadedEventLoopGroup`).
    ///   - initializer: Sets up each connection's pipeline.
    ///   - logger: Where accepting problems are logged.
    ///   - accept: Takes a connection off the socket; accept(2) but in tests.
    /// - Throws: ``ServerError`` when the loops are not NIO's own.
    init(descriptor: CInt, eventLoops: any EventLoopGroup, initializer: @escaping Initializer, logger: Logger,
         accept: @escaping Accept = { Glibc.accept($0, nil, nil) }) throws {
        guard ClientBootstrap(validatingGroup: eventLoops) != nil else {
            throw ServerError.socketSetup("descriptor \(descriptor)", "the event loops are not NIO's own")
        }
        self.descriptor = descriptor
        self.eventLoops = eventLoops
        self.initializer = initializer
        self.accept = accept
        self.logger = logger
    }

    /// Starts accepting.
    func start() {
        let source = ReadSource(source: DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue))
        source.source.setEventHandler { [self] in acceptPending(source) }
        self.source.withLockedValue { $0 = source }
        source.source.activate()
    }

    /// Stops accepting and closes the listening socket; connections already accepted stay.
    func stop() async {
        let taken: ReadSource? = self.source.withLockedValue { source in
            defer { source = nil }
            return source
        }
        guard let taken else { return }
        let descriptor = self.descriptor
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            // Runs once no event handler runs any more, so nothing accepts on a closed descriptor.
            taken.source.setCancelHandler {
                close(descriptor)
                stopped.resume()
            }
            taken.source.cancel()
        }
    }

    /// Accepts up to ``batch`` connections, then waits for the event loop to have set them
    /// up before accepting more: accepting far ahead of the loop made it set up a thousand
    /// connections and answer their first calls in one go, and left the daemon's memory at
    /// twice its size after the load figures.
    private func acceptPending(_ source: ReadSource) {
        var accepted: [CInt] = []
        while accepted.count < Self.batch {
            let connection = accept(descriptor)
            if connection >= 0 {
                // As accept4(2) would set them, which Glibc's Swift module does not declare.
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                _ = fcntl(connection, F_SETFL, O_NONBLOCK)
                accepted.append(connection)
                exhausted.withLockedValue { $0 = false }
                continue
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            if errno != EAGAIN {
                let reason = String(cString: strerror(errno))
                let alreadyLogged = exhausted.withLockedValue { logged in
                    defer { logged = true }
                    return logged
                }
                if !alreadyLogged {
                    logger.warning("accepting a connection failed: \(reason); trying again every 100 ms")
                }
                source.source.suspend()
                // Timed by an event loop, whose timer exists already: libdispatch would create
                // one for its first timer, and without a free descriptor it traps.
                eventLoops.next().scheduleTask(in: Self.pauseWhenExhausted) { source.source.resume() }
                return
            }
            break
        }
        guard !accepted.isEmpty else { return }
        source.source.suspend()
        let connections = accepted
        let (initializer, logger) = (self.initializer, self.logger)
        let eventLoop = eventLoops.next()
        // The channels are made on their loop, not on this queue's thread.
        eventLoop.execute {
            for connection in connections {
                // Validated in init. Clients half-close to say they are done sending, and
                // still read what is owed them.
                ClientBootstrap(group: eventLoop)
                    .channelOption(.allowRemoteHalfClosure, value: true)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture { try initializer(channel, connection) }
                    }
                    .withConnectedSocket(connection)
                    .whenFailure { error in logger.warning("a connection could not be set up: \(error)") }
            }
            source.source.resume()
        }
    }
}
