#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import AppStateIPC
import CSystemd

/// One client connection: splits the byte stream into calls, answers the reads it can at
/// once from the published trees, hands each burst of other calls to the ``CallProcessor``
/// in a single hop to the main actor, and writes the replies in order.
///
/// Pipelined calls that arrive together are answered together, so a client that pipelines
/// pays at most one actor hop and one flush per burst rather than per call, and a burst of
/// reads none.
///
/// Back-pressure: at most ``maximumBatch`` calls go to the main actor in one hop, so that a
/// client pipelining thousands of calls cannot hold the trees for seconds while others wait;
/// the next batch goes once the replies are written and the client is reading them (the
/// channel is writable); and the socket is not read while a batch's worth of calls is
/// waiting or the replies are not being read, so a client that never reads its replies
/// cannot grow the daemon's memory.
final class VarlinkConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The most calls answered in one hop to the main actor.
    static let maximumBatch = 256

    private enum State {
        case idle
        case processing
        case streaming
        case closed
    }

    private let processor: any CallProcessor
    private let limits: ServerLimits
    private let counter: ConnectionCounter
    private let access: any MutationAccess
    private var decoder: VarlinkFrameDecoder
    private var pending: [VarlinkCall] = []
    /// Replies answered at once in this read burst, written at its end.
    private var immediateReplies: [UInt8] = []
    private var state = State.idle
    private var holdsPlace = false
    private var closesAfterWrite = false
    /// The client shut down its sending side (`printf … | socat`): answer what it sent, then close.
    private var inputClosed = false
    private var connection: ConnectionContext?
    private var partialMessageTimer: Scheduled<Void>?
    /// A read the channel asked for while reading was held back.
    private var readHeld = false

    init(processor: any CallProcessor, limits: ServerLimits, counter: ConnectionCounter, access: any MutationAccess) {
        self.processor = processor
        self.limits = limits
        self.counter = counter
        self.access = access
        self.decoder = VarlinkFrameDecoder(maximumMessageSize: limits.maximumMessageSize)
    }

    func channelActive(context: ChannelHandlerContext) {
        guard counter.acquire(limit: limits.maximumConnections) else {
            fail(context, with: .tooManyConnections(limit: limits.maximumConnections))
            return
        }
        holdsPlace = true
        guard let provider = context.channel as? any SocketOptionProvider else {
            close(context)
            return
        }
        // Read once per connection: the credentials are those of the process that connected.
        let credentials: EventLoopFuture<appstate_peer_credentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        credentials.assumeIsolated().whenComplete { result in
            guard case .success(let credentials) = result else {
                self.close(context)
                return
            }
            let peer = Peer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, mayMutate: self.access.mayMutate(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid))
            self.connection = ConnectionContext(peer: peer, channel: context.channel, watcherQueueLimit: self.limits.maximumWatcherQueue,
                                                watcherReplyLimit: self.limits.maximumWatcherReplies,
                                                watcherGrace: self.limits.partialMessageTimeout)
            context.fireChannelActive()
            self.dispatchPending(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        partialMessageTimer?.cancel()
        if holdsPlace {
            holdsPlace = false
            counter.release()
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .closed else { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { decoder.append($0) }
        do {
            while let call = try decoder.nextCall() {
                // `more` asks for a stream of replies, `oneway` for none: a call with both
                // is malformed (sd-varlink drops such a peer too), and is not acted on.
                if call.more && call.oneway {
                    close(context)
                    return
                }
                // Only with nothing in flight: a reply must not overtake an earlier call's.
                if pending.isEmpty, state == .idle, connection != nil, processor.answerImmediately(call, into: &immediateReplies) {
                    continue
                }
                pending.append(call)
            }
        } catch {
            if error.kind == .messageTooLarge {
                fail(context, with: .messageTooLarge(limit: limits.maximumMessageSize))
            } else {
                close(context)
            }
            return
        }
        armPartialMessageTimer(context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        writeImmediateReplies(context)
        dispatchPending(context)
    }

    private func writeImmediateReplies(_ context: ChannelHandlerContext) {
        guard !immediateReplies.isEmpty, state != .closed else { return }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: immediateReplies)), promise: nil)
        immediateReplies.removeAll(keepingCapacity: true)
    }

    func read(context: ChannelHandlerContext) {
        guard !holdsReads(context) else {
            readHeld = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            dispatchPending(context)
            resumeReading(context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Whether to leave the socket unread: a batch is already waiting, or the client is not
    /// reading its replies.
    private func holdsReads(_ context: ChannelHandlerContext) -> Bool {
        pending.count >= Self.maximumBatch || !context.channel.isWritable
    }

    private func resumeReading(_ context: ChannelHandlerContext) {
        guard readHeld, state != .closed, !holdsReads(context) else { return }
        readHeld = false
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            if state == .idle, pending.isEmpty {
                writeImmediateReplies(context)
                close(context)
            }
            return
        }
        guard event is DrainEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if state == .processing {
            closesAfterWrite = true
        } else {
            close(context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        close(context)
    }

    private func dispatchPending(_ context: ChannelHandlerContext) {
        guard !pending.isEmpty else { return }
        switch state {
        case .processing, .closed:
            return
        case .streaming:
            // A Watch stream owns the connection until it closes: a reply to a later call
            // could not be told apart from the stream's replies.
            close(context)
            return
        case .idle:
            break
        }
        // Replies wait until the client reads those already sent.
        guard let connection, context.channel.isWritable else { return }
        state = .processing
        let calls = Array(pending.prefix(Self.maximumBatch))
        pending.removeFirst(calls.count)
        let processor = self.processor
        let eventLoop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: eventLoop)
        Task { @MainActor in
            let replies = await processor.process(calls, on: connection)
            eventLoop.execute {
                let (handler, context) = bound.value
                handler.write(replies, answering: calls, context)
            }
        }
    }

    private func write(_ replies: [VarlinkReply?], answering calls: [VarlinkCall], _ context: ChannelHandlerContext) {
        guard state != .closed else { return }
        // The processor stops at a Watch that streams; the calls behind it in the batch were
        // not acted on and go back in line, where the stream's rule (below) closes the
        // connection, as for calls that arrive later.
        if replies.count < calls.count { pending.insert(contentsOf: calls[replies.count...], at: 0) }
        var bytes: [UInt8] = []
        var streams = false
        for reply in replies {
            guard let reply else { continue }
            reply.encode(into: &bytes)
            streams = streams || reply.continues
        }
        state = streams ? .streaming : .idle
        if !bytes.isEmpty {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        }
        if closesAfterWrite || (inputClosed && pending.isEmpty && state == .idle) {
            close(context)
            return
        }
        dispatchPending(context)
        resumeReading(context)
    }

    private func armPartialMessageTimer(_ context: ChannelHandlerContext) {
        guard decoder.hasPartialMessage else {
            partialMessageTimer?.cancel()
            partialMessageTimer = nil
            return
        }
        guard partialMessageTimer == nil else { return }
        let timeout = limits.partialMessageTimeout.components
        let amount = TimeAmount.seconds(timeout.seconds) + .nanoseconds(timeout.attoseconds / 1_000_000_000)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        partialMessageTimer = context.eventLoop.scheduleTask(in: amount) {
            let (handler, context) = bound.value
            handler.partialMessageTimer = nil
            if handler.decoder.hasPartialMessage { handler.close(context) }
        }
    }

    private func fail(_ context: ChannelHandlerContext, with error: VarlinkError) {
        let bytes = VarlinkReply(error: error).encoded
        state = .closed
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: bytes))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func close(_ context: ChannelHandlerContext) {
        state = .closed
        context.close(promise: nil)
    }
}
