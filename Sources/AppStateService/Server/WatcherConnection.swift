import AppStateIPC
import NIOConcurrencyHelpers
import NIOCore

/// A connection streaming `Watch` replies, with a bound on what may queue up for it: a
/// watcher that cannot keep up is told and disconnected, and never grows the daemon's memory.
public final class WatcherConnection: Sendable {
    private let channel: any Channel
    private let limit: Int
    private let replyLimit: Int
    /// How long a cut-off watcher has to read what was queued and the error before it is
    /// closed anyway.
    private let grace: Duration
    /// Taken on the main actor (`send`) and on the event loop (write completions): a pthread
    /// mutex because ThreadSanitizer cannot see `Synchronization.Mutex` on Linux (see
    /// ``ConnectionCounter``).
    private let state = NIOLockedValueBox(State())

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
    }

    /// Queues one encoded reply; cuts the watcher off when its queue is over the limit.
    /// - Parameter frame: The reply, NUL-terminated; shared between watchers without copying.
    func send(_ frame: ByteBuffer) {
        let size = frame.readableBytes
        let verdict = state.withLockedValue { state -> Verdict in
            guard !state.isCutOff else { return .drop }
            guard state.queued + size <= limit, state.replies < replyLimit else {
                state.isCutOff = true
                return .cutOff(queued: state.replies)
            }
            state.queued += size
            state.replies += 1
            return .write
        }
        switch verdict {
        case .drop:
            return
        case .cutOff(let queued):
            cutOff(queued: queued)
        case .write:
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { _ in
                self.state.withLockedValue {
                    $0.queued -= size
                    $0.replies -= 1
                }
            }
            channel.writeAndFlush(frame, promise: promise)
        }
    }

    private enum Verdict {
        case write
        case cutOff(queued: Int)
        case drop
    }

    /// Closes the stream, e.g. when the daemon stops.
    func close() {
        channel.close(promise: nil)
    }

    /// Whether the connection is gone, so the hub can forget it.
    var isClosed: Bool { !channel.isActive }

    private func cutOff(queued: Int) {
        let buffer = channel.allocator.buffer(bytes: VarlinkReply(error: .watcherTooSlow(queued: queued)).encoded)
        let channel = self.channel
        let grace = TimeAmount.nanoseconds(Int64(grace.components.seconds) * 1_000_000_000 + grace.components.attoseconds / 1_000_000_000)
        channel.eventLoop.execute {
            // The error goes after what is already queued: close once it is written, so the
            // watcher is told why, or after the grace period if it does not read at all.
            // Nothing more is queued meanwhile, so memory stays within the limit.
            let deadline = channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
            channel.writeAndFlush(buffer).whenComplete { _ in
                deadline.cancel()
                channel.close(promise: nil)
            }
        }
    }
}
