import AppStateIPC

/// The service behind the socket: answers a connection's calls on the main actor, where
/// the trees live.
@MainActor public protocol CallProcessor: AnyObject, Sendable {
    /// Answers calls received together on one connection, in order.
    /// - Parameters:
    ///   - calls: The calls, in the order they arrived.
    ///   - connection: The connection they arrived on.
    /// - Returns: One entry per call: its reply, or nil for a `oneway` call. A reply with
    ///   `continues` set turns the connection into a stream; calls after it are not answered.
    func process(_ calls: [VarlinkCall], on connection: ConnectionContext) async -> [VarlinkReply?]
}
