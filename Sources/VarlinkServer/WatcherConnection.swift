import NIOCore
import Synchronization
import Varlink

/// A connection as a `Watch` stream, with a bound on what may queue up for it: a watcher
/// that cannot keep up is told and disconnected, and never grows the daemon's memory.
///
/// The replies that count against the limits are those queued while the channel is not
/// writable, that is while NIO holds more than its high-water mark unwritten for it, and
/// until they are written. A watcher that keeps up never gets there, and its replies are
/// written without a completion to wait for: a change reaches every watcher, so what each
/// write costs is paid once per watcher for every change.
///
/// Replies are queued on the connection's own event loop (its ``EventLoopWatcherLane`` hops
/// there once for all its watchers), so the accounting needs no lock.
final class WatcherConnection: WatcherSink {
    let lane: EventLoopWatcherLane
    private let channel: any Channel
    private let limits: ServerLimits
    private let errors: ConnectionErrors
    private let runner: any MainActorRunner
    private let state: NIOLoopBoundBox<State>
    /// Set by the host (on the main actor), read by the connection's handler on its loop.
    private let endsWithInput = Atomic(false)

    private struct State {
        /// Counted bytes not yet written, for the limit.
        var queued = 0
        /// Counted replies not yet written, for the limit and the error.
        var replies = 0
        var isCutOff = false
    }

    /// Creates the stream side of a connection.
    /// - Parameters:
    ///   - channel: The connection.
    ///   - lane: The lane of the channel's event loop.
    ///   - limits: How many bytes and replies may wait to be written, and how long a cut-off
    ///     watcher may take to read why (``ServerLimits/partialMessageTimeout``).
    ///   - errors: The error that tells a watcher it was too slow.
    ///   - runner: Where the host hears that the connection closed.
    init(channel: any Channel, lane: EventLoopWatcherLane, limits: ServerLimits, errors: ConnectionErrors, runner: any MainActorRunner) {
        self.channel = channel
        self.lane = lane
        self.limits = limits
        self.errors = errors
        self.runner = runner
        self.state = .makeBoxSendingValue(State(), eventLoop: channel.eventLoop)
    }

    /// Queues one encoded reply; cuts the watcher off when its queue is over the limit.
    /// Call on the channel's event loop.
    /// - Parameter frame: The reply, NUL-terminated; shared between watchers without copying.
    func send(_ frame: ByteBuffer) {
        guard !state.value.isCutOff else { return }
        // Counting goes on until every counted reply is written, even once the backlog is back
        // under the mark: a reply behind counted ones waits as long as they do.
        guard !channel.isWritable || state.value.replies > 0 else {
            // Through the pipeline, a final class whose generic write is specialized here:
            // the channel's, called on `any Channel`, is not, and casts every reply at run time.
            channel.pipeline.writeAndFlush(frame, promise: nil)
            return
        }
        let size = frame.readableBytes
        guard state.value.queued + size <= limits.maximumWatcherQueue, state.value.replies < limits.maximumWatcherReplies else {
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
        channel.pipeline.writeAndFlush(frame, promise: promise)
    }

    func close() {
        channel.close(promise: nil)
    }

    var isClosed: Bool { !channel.isActive }

    func endWithInput() {
        endsWithInput.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether the stream ends when the peer stops sending; see ``endWithInput()``.
    var endsAtEndOfInput: Bool { endsWithInput.load(ordering: .sequentiallyConsistent) }

    func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void) {
        let runner = self.runner
        channel.closeFuture.whenComplete { _ in runner.execute(body) }
    }

    /// Sends the error after what is already queued and closes once it is written, so the
    /// watcher is told why, or after the grace period if it does not read at all; closes at
    /// once when the hosted interface declares no error for it. Nothing
    /// more is queued meanwhile, so memory stays within the limit.
    private func cutOff(queued: Int) {
        lane.metrics.countWatcherCut()
        let channel = self.channel
        guard let error = errors.watcherTooSlow?(queued) else {
            channel.close(promise: nil)
            return
        }
        let buffer = channel.allocator.buffer(bytes: VarlinkReply(error: error).encoded)
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(limits.partialMessageTimeout)) { channel.close(promise: nil) }
        channel.writeAndFlush(buffer).whenComplete { _ in
            deadline.cancel()
            channel.close(promise: nil)
        }
    }
}
