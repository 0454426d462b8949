import NIOCore
import Varlink

/// One client connection, behind a ``VarlinkCallDecoder``: answers the reads it can at once
/// from what the processors published, hands each burst of other calls to the processors
/// (in the same turn of the loop when the loop runs the main actor, else in one hop to it),
/// and writes the replies in order.
///
/// Pipelined calls that arrive together are answered together, so a client that pipelines
/// pays at most one actor hop and one flush per burst rather than per call, and a burst of
/// reads none. When to answer, read and close is ``ConnectionStateMachine``'s to say; this
/// handler does what it answers.
final class VarlinkConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = [VarlinkCall]
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let dispatcher: CallDispatcher
    private let limits: ServerLimits
    private let counter: ConnectionCounter
    private let peers: PeerIdentifier
    private let lane: EventLoopWatcherLane
    private let errors: ConnectionErrors
    private let runner: any MainActorRunner
    private var machine = ConnectionStateMachine()
    /// Replies answered at once in this read burst, written at its end.
    private var atOnceReplies: [UInt8] = []
    /// The peer's uid once it holds one of its user's places.
    private var userPlace: UInt32?
    private var idleTimer: Scheduled<Void>?
    /// The connection as a stream, once the peer is identified.
    private var watcher: WatcherConnection?

    /// Creates the handler of one connection.
    /// - Parameters:
    ///   - dispatcher: What answers the calls.
    ///   - limits: The bounds on connections and watchers.
    ///   - counter: The open connections, for the connection limit.
    ///   - peers: How the peer is identified.
    ///   - lane: The watchers of the connection's event loop, should it stream, with the
    ///     metrics where the errors that close a connection are counted.
    ///   - errors: The errors that close a connection.
    ///   - runner: How the watcher side reaches the main actor once it closes.
    init(
        dispatcher: CallDispatcher, limits: ServerLimits, counter: ConnectionCounter, peers: PeerIdentifier, lane: EventLoopWatcherLane,
        errors: ConnectionErrors, runner: any MainActorRunner
    ) {
        self.dispatcher = dispatcher
        self.limits = limits
        self.counter = counter
        self.peers = peers
        self.lane = lane
        self.errors = errors
        self.runner = runner
    }

    func channelActive(context: ChannelHandlerContext) {
        guard machine.connected(placeTaken: counter.acquire(limit: limits.maximumConnections)) else {
            answerAndClose(context, with: errors.tooManyConnections?(limits.maximumConnections))
            return
        }
        if let timeout = limits.idleTimeout { scheduleIdleCheck(after: timeout, context) }
        peers.identify(context.channel).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let peer):
                guard self.counter.acquire(user: peer.uid, limit: self.limits.maximumConnectionsPerUser) else {
                    self.machine.identificationFailed()
                    self.answerAndClose(context, with: self.errors.tooManyConnections?(self.limits.maximumConnectionsPerUser))
                    return
                }
                self.userPlace = peer.uid
                let watcher = WatcherConnection(
                    channel: context.channel, lane: self.lane, limits: self.limits, errors: self.errors,
                    runner: self.runner)
                self.watcher = watcher
                context.fireChannelActive()
                self.perform(self.machine.identified(ConnectionContext(peer: peer, watcher: watcher)), context)
            case .failure:
                self.machine.identificationFailed()
                context.close(promise: nil)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if machine.closed() { counter.release() }
        if let userPlace { counter.release(user: userPlace) }
        userPlace = nil
        idleTimer?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for call in unwrapInboundIn(data) {
            switch machine.received(call) {
            case .drop, .wait:
                break
            case .close:
                context.close(promise: nil)
            case .answerAtOnce:
                if !dispatcher.answerImmediately(call, into: &atOnceReplies) { machine.queue(call) }
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        machine.active(at: context.eventLoop.now.uptimeNanoseconds)
        if !machine.isClosed { writeAtOnceReplies(context) }
        perform(machine.readComplete(), context)
    }

    func read(context: ChannelHandlerContext) {
        if machine.readRequested() { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        perform(machine.writabilityChanged(isWritable: context.channel.isWritable), context)
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            if machine.inputClosedByPeer(endsStream: watcher?.endsAtEndOfInput == true) {
                writeAtOnceReplies(context)
                context.close(promise: nil)
            }
        } else if event is DrainEvent {
            if machine.drain() { context.close(promise: nil) }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let tooLarge = (error as? VarlinkProtocolError)?.kind == .messageTooLarge
        switch machine.errorCaught(messageTooLarge: tooLarge) {
        case .none:
            break
        case .close:
            context.close(promise: nil)
        case .answerTooLargeAndClose:
            answerAndClose(context, with: errors.messageTooLarge?(limits.maximumMessageSize))
        }
    }

    private func perform(_ action: ConnectionStateMachine.Action, _ context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .process(let calls, let connection, let thenRead):
            process(calls, on: connection, context)
            if thenRead { context.read() }
        case .read:
            context.read()
        case .close:
            context.close(promise: nil)
        }
    }

    private func process(_ calls: [VarlinkCall], on connection: ConnectionContext, _ context: ChannelHandlerContext) {
        let eventLoop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: eventLoop)
        dispatcher.process(calls, on: connection) { replies in
            // On the daemon's loop the replies of a batch that waited for nothing are written
            // in the same turn that read it.
            guard eventLoop.inEventLoop else {
                return eventLoop.execute {
                    let (handler, context) = bound.value
                    handler.write(replies, answering: calls, context)
                }
            }
            let (handler, context) = bound.value
            handler.write(replies, answering: calls, context)
        }
    }

    private func write(_ replies: [VarlinkReply?], answering calls: [VarlinkCall], _ context: ChannelHandlerContext) {
        guard case .write(let thenClose) = machine.answered(replies, to: calls, streamEndsWithInput: watcher?.endsAtEndOfInput == true) else {
            return
        }
        var bytes: [UInt8] = []
        for case let reply? in replies { reply.encode(into: &bytes) }
        if !bytes.isEmpty {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        }
        if thenClose {
            context.close(promise: nil)
        } else {
            machine.active(at: context.eventLoop.now.uptimeNanoseconds)
            perform(machine.repliesWritten(), context)
        }
    }

    /// Closes the connection once it has been idle for ``ServerLimits/idleTimeout``: an
    /// abandoned connection must not hold one of the limited places for ever.
    private func scheduleIdleCheck(after delay: Duration, _ context: ChannelHandlerContext) {
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
            guard let timeout = self.limits.idleTimeout else { return }
            let nanoseconds = UInt64(TimeAmount(timeout).nanoseconds)
            switch self.machine.idleTimerFired(now: context.eventLoop.now.uptimeNanoseconds, timeout: nanoseconds) {
            case .close:
                context.close(promise: nil)
            case .checkAgain(let after):
                self.scheduleIdleCheck(after: .nanoseconds(Int64(after)), context)
            case .stop:
                break
            }
        }
    }

    private func writeAtOnceReplies(_ context: ChannelHandlerContext) {
        guard !atOnceReplies.isEmpty else { return }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: atOnceReplies)), promise: nil)
        atOnceReplies.removeAll(keepingCapacity: true)
    }

    /// Writes a last error, then closes once it is written, so the client is told why; closes
    /// at once when the hosted interface declares no error for it.
    private func answerAndClose(_ context: ChannelHandlerContext, with error: VarlinkError?) {
        let channel = context.channel
        guard let error else {
            channel.close(promise: nil)
            return
        }
        lane.metrics.countConnectionError(error.name)
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: VarlinkReply(error: error).encoded))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
