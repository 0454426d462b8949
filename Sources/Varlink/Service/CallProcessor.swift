/// The service behind a socket: what answers the calls of one interface. The server frames
/// the calls and writes the replies; the processor decides what they mean, on the main actor,
/// where the service's state lives.
public protocol CallProcessor: AnyObject, Sendable {
    /// The interface whose methods this processor answers, with its description for
    /// `org.varlink.service.GetInterfaceDescription`.
    nonisolated var interface: VarlinkInterfaceDescription { get }

    /// Answers calls received together on one connection, in order.
    ///
    /// The processor calls `reply` exactly once, on the main actor: at once when nothing in
    /// the batch has to wait (nothing to write to disk, nothing to look up), else when it is
    /// done. It must not `await` the main actor meanwhile: where the main actor runs on an event loop, only that loop
    /// on the main thread runs main-actor work (see ``MainActorRunner``).
    /// - Parameters:
    ///   - calls: The calls, in the order they arrived.
    ///   - connection: The connection they arrived on.
    ///   - reply: Receives one entry per call answered: its reply, or nil for a `oneway`
    ///     call. A call with `more` may be answered by several replies in a row, all but the
    ///     last with `continues` set. A reply with `continues` set as the last entry turns the
    ///     connection into a stream and ends the batch: the calls after it are not acted on
    ///     and have no entry.
    @MainActor func process(
        _ calls: [VarlinkCall], on connection: ConnectionContext,
        reply: @escaping @MainActor ([VarlinkReply?]) -> Void)

    /// Answers a call without the main actor when it only reads what was published, so the
    /// common query costs no hop. Called only when the connection has nothing in flight, so
    /// replies stay in the order of the calls.
    /// - Parameters:
    ///   - call: A call as it arrived.
    ///   - buffer: Where the encoded reply goes (nothing for a `oneway` call).
    /// - Returns: Whether the call was answered; false when it must go to
    ///   ``process(_:on:reply:)``.
    nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool
}
