#if canImport(Glibc)
import Glibc
#endif
import AppStateIPC
import NIOCore

/// A connection as a `Watch` stream, with a bound on what may queue up for it: a watcher
/// that cannot keep up is told and disconnected, and never grows the daemon's memory.
///
/// Replies are queued on the connection's own event loop (its ``EventLoopWatcherLane`` hops
/// there once for all its watchers), so the accounting needs no lock.
///
/// When the socket's descriptor is known and the channel holds nothing unwritten, a reply
/// is written to the socket directly, in one `send`: with a thousand watchers, the channel's
/// pipeline, promise and pending-writes queue around each write cost about two thirds as
/// much as the system call itself. What the socket does not take then, and everything after
/// it until the channel has written it all, goes through the channel, so the bytes keep the
/// order in which they were sent.
final class WatcherConnection: WatcherSink {
    let lane: EventLoopWatcherLane
    private let channel: any Channel
    /// The connection's socket; nil when not known.
    private let descriptor: CInt?
    private let limit: Int
    private let replyLimit: Int
    /// How long a cut-off watcher has to read what was queued and the error before it is
    /// closed anyway.
    private let grace: Duration
    private let state: NIOLoopBoundBox<State>

    private struct State {
        /// Bytes queued and not yet written, for the limit.
        var queued = 0
        /// Replies queued and not yet written, for the error.
        var replies = 0
        var isCutOff = false
        /// Whether the connection wrote through the channel since the channel was last seen
        /// to hold nothing unwritten: only then is NIO asked (``channelWritten()``).
        var channelMayHoldBytes = true
    }

    /// Creates the stream side of a connection.
    /// - Parameters:
    ///   - channel: The connection.
    ///   - descriptor: The connection's socket, to write to directly when the channel holds
    ///     nothing unwritten; nil to write through the channel only.
    ///   - lane: The lane of the channel's event loop.
    ///   - limit: The most bytes that may wait to be written.
    ///   - replyLimit: The most replies that may wait to be written.
    ///   - grace: How long a cut-off watcher may take to read the error.
    init(channel: any Channel, descriptor: CInt? = nil, lane: EventLoopWatcherLane, limit: Int, replyLimit: Int, grace: Duration) {
        self.channel = channel
        self.descriptor = descriptor
        self.lane = lane
        self.limit = limit
        self.replyLimit = replyLimit
        self.grace = grace
        self.state = .makeBoxSendingValue(State(), eventLoop: channel.eventLoop)
    }

    /// Queues one encoded reply; cuts the watcher off when its queue is over the limit.
    /// Call on the channel's event loop.
    /// - Parameter frame: The reply, NUL-terminated; shared between watchers without copying.
    func send(_ frame: ByteBuffer) {
        guard !state.value.isCutOff else { return }
        var frame = frame
        let written = writeDirectly(frame)
        guard written < frame.readableBytes else { return }
        frame.moveReaderIndex(forwardBy: written)
        let size = frame.readableBytes
        guard state.value.queued + size <= limit, state.value.replies < replyLimit else {
            state.value.isCutOff = true
            cutOff(queued: state.value.replies)
            return
        }
        state.value.queued += size
        state.value.replies += 1
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { _ in
            self.state.value.queued -= size
            self.state.value.replies -= 1
        }
        channel.writeAndFlush(frame, promise: promise)
    }

    /// Writes as much of a reply as the socket takes at once, when nothing written through
    /// the channel is still waiting for the socket.
    /// - Returns: The number of bytes written; 0 when the reply must go through the channel
    ///   (a failed `send` leaves the channel to find the error and close).
    private func writeDirectly(_ frame: ByteBuffer) -> Int {
        // On the loop, an open channel's descriptor is still its own: the channel closes it on
        // this thread, and only then may the number be given to another connection.
        guard let descriptor, state.value.queued == 0, channel.isActive, channelHoldsNothing() else { return 0 }
        let written = frame.withUnsafeReadableBytes { bytes in
            // MSG_NOSIGNAL: a watcher gone away is an error to the channel, not a SIGPIPE.
            Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        return max(written, 0)
    }

    /// Tells the watcher that the connection wrote through the channel (its answers to calls,
    /// such as the `Watch` call's snapshot): until the channel has written that, replies queue
    /// behind it. Call on the channel's event loop.
    func channelWritten() {
        state.value.channelMayHoldBytes = true
    }

    /// Whether the channel holds nothing unwritten. NIO is asked only after the connection
    /// wrote through it: NIO answers through a chain of dynamic casts, which asked for every
    /// reply to every watcher cost more than the rest of the write.
    private func channelHoldsNothing() -> Bool {
        guard state.value.channelMayHoldBytes else { return true }
        guard (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) == 0 else { return false }
        state.value.channelMayHoldBytes = false
        return true
    }

    func close() {
        channel.close(promise: nil)
    }

    var isClosed: Bool { !channel.isActive }

    func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void) {
        channel.closeFuture.whenComplete { _ in Task { @MainActor in body() } }
    }

    /// Sends the error after what is already queued and closes once it is written, so the
    /// watcher is told why, or after the grace period if it does not read at all. Nothing
    /// more is queued meanwhile, so memory stays within the limit.
    private func cutOff(queued: Int) {
        lane.metrics.countWatcherCut()
        let buffer = channel.allocator.buffer(bytes: VarlinkReply(error: .watcherTooSlow(queued: queued)).encoded)
        let channel = self.channel
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(grace)) { channel.close(promise: nil) }
        channel.writeAndFlush(buffer).whenComplete { _ in
            deadline.cancel()
            channel.close(promise: nil)
        }
    }
}
