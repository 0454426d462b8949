import AppStateIPC

/// The service behind the socket: answers a connection's calls on the main actor, where
/// the trees live, except the reads it can answer at once on the connection's own thread.
@MainActor public protocol CallProcessor: AnyObject, Sendable {
    /// Answers calls received together on one connection, in order.
    /// - Parameters:
    ///   - calls: The calls, in the order they arrived.
    ///   - connection: The connection they arrived on.
    /// - Returns: One entry per call answered: its reply, or nil for a `oneway` call. A reply
    ///   with `continues` set turns the connection into a stream and ends the batch: the
    ///   calls after it are not acted on and have no entry.
    func process(_ calls: [VarlinkCall], on connection: ConnectionContext) async -> [VarlinkReply?]

    /// Answers a call without the main actor when it only reads what was published, so the
    /// common query costs no thread hop. Called only when the connection has nothing in
    /// flight, so replies stay in the order of the calls.
    /// - Parameters:
    ///   - call: A call as it arrived.
    ///   - buffer: Where the encoded reply goes (nothing for a `oneway` call).
    /// - Returns: Whether the call was answered; false when it must go to ``process(_:on:)``.
    nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool

    /// Answers calls at once, on the calling thread, when that thread runs the main actor and
    /// nothing in them needs to wait: the hop to the main actor and back saved.
    /// - Parameters:
    ///   - calls: The calls, in the order they arrived.
    ///   - connection: The connection they arrived on.
    /// - Returns: The replies, as ``process(_:on:)`` gives them, or nil when the calls must go
    ///   there.
    nonisolated func processAtOnce(_ calls: [VarlinkCall], on connection: ConnectionContext) -> [VarlinkReply?]?
}

extension CallProcessor {
    /// Never: every batch goes to ``process(_:on:)``.
    public nonisolated func processAtOnce(_ calls: [VarlinkCall], on connection: ConnectionContext) -> [VarlinkReply?]? { nil }
}
