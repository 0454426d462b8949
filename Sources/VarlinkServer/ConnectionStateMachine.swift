import Varlink

/// The rules of one Varlink connection, as a value: which calls are answered at once and
/// which wait for the processor, when the socket is read, and when the connection closes.
///
/// ``VarlinkConnectionHandler`` tells it what happened on the channel and carries out what
/// it answers, as NIO's own handlers do, so that the rules are tested without a channel.
///
/// - Calls are answered in order. A read (``CallProcessor/answerImmediately(_:into:)``) is
///   answered at once only when nothing is in flight, so no reply overtakes an earlier one.
/// - The other calls wait and go to the processor in batches of at most ``maximumBatch``,
///   one batch at a time, and only while the channel is writable: the next batch goes once
///   the replies are written and the client is reading them.
/// - The socket is not read while a batch's worth of calls waits or the channel is not
///   writable, so a client that never reads its replies cannot grow the daemon's memory.
/// - A call with both `more` and `oneway` is malformed (sd-varlink drops such a peer too):
///   the connection closes without acting on it.
/// - A `Watch` stream owns the connection: a call behind it, in the same batch or later,
///   closes the connection, since no reply of its could be told apart from the stream's.
/// - A client that shuts down its sending side gets the replies to what it sent, then the
///   connection closes; a stream goes on, unless it ends with the peer's input (an
///   inhibitor's, which never writes, and so learns of a peer that died no other way).
/// - When the daemon stops, an idle connection closes at once and a busy one once the
///   replies in progress are written.
struct ConnectionStateMachine {
    /// The most calls answered in one hop to the main actor.
    static let maximumBatch = 256

    private enum State {
        /// The peer's credentials are being read; calls wait, since who may mutate is not
        /// known yet.
        case identifying
        /// Nothing is with the processor.
        case idle(ConnectionContext)
        /// A batch is with the processor; `draining` once the daemon stops meanwhile.
        case processing(ConnectionContext, draining: Bool)
        /// A `Watch` stream owns the connection.
        case streaming
        case closed
    }

    /// What the handler does next.
    enum Action {
        /// Nothing.
        case none
        /// Hand the calls to the processor, in one hop; then read if `thenRead`.
        case process([VarlinkCall], on: ConnectionContext, thenRead: Bool)
        /// Read, since a read held back may go ahead.
        case read
        /// Close the connection.
        case close
    }

    /// What the handler does with a call that arrived.
    enum CallAction: Equatable {
        /// Nothing: the connection is closing.
        case drop
        /// Close the connection without acting on the call.
        case close
        /// Let the processor answer it at once if it can, and ``queue(_:)`` it if not.
        case answerAtOnce
        /// Nothing: the call waits its turn.
        case wait
    }

    /// What the handler does with a batch's replies.
    enum RepliesAction: Equatable {
        /// Drop them: the connection is closed.
        case drop
        /// Write them, then close the connection if `thenClose`, or else report
        /// ``repliesWritten()``.
        case write(thenClose: Bool)
    }

    /// What the handler does with an error of the channel.
    enum ErrorAction: Equatable {
        /// Nothing: the connection is already closing.
        case none
        /// Close the connection.
        case close
        /// Answer the host's message-too-large error (``ConnectionErrors``), then close the connection.
        case answerTooLargeAndClose
    }

    private var state = State.identifying
    private var pending: [VarlinkCall] = []
    private var isWritable = true
    /// A read the channel asked for while reading was held back.
    private var readHeld = false
    /// The client shut down its sending side (`printf … | socat`).
    private var inputClosed = false
    /// The connection counts against the connection limit.
    private var holdsPlace = false
    /// When the connection last read a burst of calls or wrote a batch's replies, on the
    /// handler's clock, in nanoseconds.
    private var lastActivity: UInt64 = 0

    /// Whether the connection is closed or closing: nothing more is written but what closes it.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// The connection is accepted.
    /// - Parameter placeTaken: Whether it found a place under the connection limit.
    /// - Returns: Whether to identify the peer; false when the connection is refused and
    ///   closes, after answering the host's too-many-connections error.
    mutating func connected(placeTaken: Bool) -> Bool {
        guard placeTaken else {
            state = .closed
            return false
        }
        holdsPlace = true
        return true
    }

    /// The peer is known; the calls that arrived meanwhile may go.
    /// - Parameter connection: The connection's description for the processor.
    mutating func identified(_ connection: ConnectionContext) -> Action {
        guard case .identifying = state else { return .none }
        state = .idle(connection)
        return dispatch()
    }

    /// The peer could not be identified: the connection closes.
    mutating func identificationFailed() {
        state = .closed
    }

    /// A call arrived.
    mutating func received(_ call: VarlinkCall) -> CallAction {
        if case .closed = state { return .drop }
        if call.more && call.oneway {
            state = .closed
            return .close
        }
        if case .idle = state, pending.isEmpty { return .answerAtOnce }
        pending.append(call)
        return .wait
    }

    /// A call the processor could not answer at once waits its turn.
    mutating func queue(_ call: VarlinkCall) {
        pending.append(call)
    }

    /// The read burst ended, after the replies answered at once in it were written (unless
    /// the connection ``isClosed``).
    mutating func readComplete() -> Action {
        dispatch()
    }

    /// The channel asks to read.
    /// - Returns: Whether to read now; false holds the read back until the calls waiting
    ///   fall below a batch and the channel is writable.
    mutating func readRequested() -> Bool {
        guard !holdsReads else {
            readHeld = true
            return false
        }
        return true
    }

    /// The channel's writability changed.
    mutating func writabilityChanged(isWritable: Bool) -> Action {
        self.isWritable = isWritable
        guard isWritable else { return .none }
        return dispatchAndResume()
    }

    /// The client shut down its sending side.
    /// - Parameter endsStream: Whether a stream the connection carries ends with the input.
    /// - Returns: Whether to write the replies answered at once and close now, when nothing
    ///   is waiting or in flight, or the stream ends; otherwise the connection closes after the
    ///   last replies.
    mutating func inputClosedByPeer(endsStream: Bool = false) -> Bool {
        inputClosed = true
        switch state {
        case .identifying, .idle:
            guard pending.isEmpty else { return false }
            state = .closed
            return true
        case .streaming where endsStream:
            state = .closed
            return true
        case .processing, .streaming, .closed:
            return false
        }
    }

    /// The daemon stops.
    /// - Returns: Whether to close now; a connection with a batch in progress closes once its
    ///   replies are written.
    mutating func drain() -> Bool {
        if case .processing(let connection, _) = state {
            state = .processing(connection, draining: true)
            return false
        }
        state = .closed
        return true
    }

    /// The channel reported an error.
    /// - Parameter messageTooLarge: Whether the error is a message over the size limit.
    mutating func errorCaught(messageTooLarge: Bool) -> ErrorAction {
        if case .closed = state { return .none }
        state = .closed
        return messageTooLarge ? .answerTooLargeAndClose : .close
    }

    /// The processor answered a batch.
    /// - Parameters:
    ///   - replies: One entry per call answered, nil for a `oneway` call, several for a call
    ///     with `more` answered by a finite run of replies (see ``BatchReplies``); fewer than
    ///     the calls when a `Watch` stream began.
    ///   - calls: The batch.
    ///   - streamEndsWithInput: Whether a stream the replies start ends with the peer's input,
    ///     which may have ended already.
    mutating func answered(_ replies: [VarlinkReply?], to calls: [VarlinkCall], streamEndsWithInput: Bool = false) -> RepliesAction {
        guard case .processing(let connection, let draining) = state else { return .drop }
        // The calls behind a Watch that streams were not acted on: back in line, where the
        // stream's rule closes the connection, as for calls that arrive later.
        let answered = BatchReplies.callsAnswered(replies)
        if answered < calls.count { pending.insert(contentsOf: calls[answered...], at: 0) }
        let streams = BatchReplies.streams(replies)
        if draining || (inputClosed && pending.isEmpty && (!streams || streamEndsWithInput)) {
            state = .closed
            return .write(thenClose: true)
        }
        state = streams ? .streaming : .idle(connection)
        return .write(thenClose: false)
    }

    /// A batch's replies were written.
    mutating func repliesWritten() -> Action {
        dispatchAndResume()
    }

    /// The connection read a burst of calls or wrote replies, so it is not idle.
    /// - Parameter now: The time, in nanoseconds on the handler's clock.
    mutating func active(at now: UInt64) {
        lastActivity = now
    }

    /// What the handler does when the idle timer fires.
    enum IdleAction: Equatable {
        /// Close the connection: it sent nothing for the whole timeout and nothing is in flight.
        case close
        /// Fire again after this many nanoseconds.
        case checkAgain(after: UInt64)
        /// Nothing more: the connection streams or is closed.
        case stop
    }

    /// The idle timer fired.
    /// - Parameters:
    ///   - now: The time, in nanoseconds on the handler's clock.
    ///   - timeout: How long a connection may stay idle, in nanoseconds.
    mutating func idleTimerFired(now: UInt64, timeout: UInt64) -> IdleAction {
        switch state {
        case .streaming, .closed:
            return .stop
        case .identifying, .processing:
            return .checkAgain(after: timeout)
        case .idle:
            guard pending.isEmpty else { return .checkAgain(after: timeout) }
            let quiet = now &- lastActivity
            guard quiet < timeout else {
                state = .closed
                return .close
            }
            return .checkAgain(after: timeout - quiet)
        }
    }

    /// The channel closed.
    /// - Returns: Whether to give back the connection's place under the limit.
    mutating func closed() -> Bool {
        state = .closed
        defer { holdsPlace = false }
        return holdsPlace
    }

    private var holdsReads: Bool {
        pending.count >= Self.maximumBatch || !isWritable
    }

    private mutating func dispatch() -> Action {
        guard !pending.isEmpty else { return .none }
        switch state {
        case .identifying, .processing, .closed:
            return .none
        case .streaming:
            state = .closed
            return .close
        case .idle(let connection):
            guard isWritable else { return .none }
            let calls = Array(pending.prefix(Self.maximumBatch))
            pending.removeFirst(calls.count)
            state = .processing(connection, draining: false)
            return .process(calls, on: connection, thenRead: false)
        }
    }

    private mutating func dispatchAndResume() -> Action {
        switch dispatch() {
        case .close:
            return .close
        case .process(let calls, let connection, _):
            return .process(calls, on: connection, thenRead: resume())
        case .none, .read:
            return resume() ? .read : .none
        }
    }

    private mutating func resume() -> Bool {
        guard readHeld, !isClosed, !holdsReads else { return false }
        readHeld = false
        return true
    }
}
