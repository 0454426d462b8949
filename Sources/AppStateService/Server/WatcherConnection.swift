import NIOCore
import AppStateIPC

/// A connection streaming `Watch` replies, with a bound on what may queue up for it: a
/// watcher that cannot keep up is told and disconnected, and never grows the daemon's memory.
///
/// Replies are queued on the connection's own event loop (``WatchHub`` hops there once for
/// all its watchers), so the accounting needs no lock.
public final class WatcherConnection: Sendable {
    private let channel: any Channel
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
    }

    init(channel: any Channel, limit: Int, replyLimit: Int, grace: Duration) {
        self.channel = channel
        self.limit = limit
        self.replyLimit = replyLimit
        self.grace = grace
        self.state = .makeBoxSendingValue(State(), eventLoop: channel.eventLoop)
    }

    /// The event loop the watcher's replies are queued on.
    var eventLoop: any EventLoop { channel.eventLoop }

    /// Queues one encoded reply; cuts the watcher off when its queue is over the limit.
    /// Call on ``eventLoop``.
    /// - Parameter frame: The reply, NUL-terminated; shared between watchers without copying.
    func send(_ frame: ByteBuffer) {
        let size = frame.readableBytes
        guard !state.value.isCutOff else { return }
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

    /// Closes the stream, e.g. when the daemon stops.
    func close() {
        channel.close(promise: nil)
    }

    /// Whether the connection is gone, so the hub can forget it.
    var isClosed: Bool { !channel.isActive }

    /// Sends the error after what is already queued and closes once it is written, so the
    /// watcher is told why, or after the grace period if it does not read at all. Nothing
    /// more is queued meanwhile, so memory stays within the limit.
    private func cutOff(queued: Int) {
        let buffer = channel.allocator.buffer(bytes: VarlinkReply(error: .watcherTooSlow(queued: queued)).encoded)
        let channel = self.channel
        let grace = TimeAmount.nanoseconds(Int64(grace.components.seconds) * 1_000_000_000 + grace.components.attoseconds / 1_000_000_000)
        let deadline = channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
        channel.writeAndFlush(buffer).whenComplete { _ in
            deadline.cancel()
            channel.close(promise: nil)
        }
    }
}
