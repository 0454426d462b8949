import VarlinkJSON

/// The replies to a call made with `more`, read one at a time with ``next()``.
public struct VarlinkReplyStream: Sendable {
    private let client: VarlinkClient
    private var finished = false

    init(client: VarlinkClient) {
        self.client = client
    }

    /// Waits for the next reply.
    /// - Returns: The reply's parameters, or `nil` once the final reply (the one without
    ///   `continues`) has been returned.
    /// - Throws: ``VarlinkError`` when the service answers with an error, which ends the
    ///   stream; ``VarlinkClientError`` when the connection fails.
    public mutating func next() throws -> [String: JSONValue]? {
        guard !finished else { return nil }
        let reply: VarlinkReply
        do {
            reply = try client.nextStreamReply()
        } catch {
            finished = true
            throw error
        }
        if let error = reply.varlinkError {
            finished = true
            throw error
        }
        finished = !reply.continues
        return reply.parameters
    }

    /// Waits for the next reply and decodes it as a method's reply type.
    /// - Parameter method: The method called, e.g. `Watch.self`.
    /// - Returns: The decoded reply, or `nil` after the final reply.
    /// - Throws: ``VarlinkError`` for an error reply; ``VarlinkClientError`` when the
    ///   connection fails or the reply does not match the method's reply type.
    public mutating func next<Method: VarlinkMethod>(as method: Method.Type) throws -> Method.Reply? {
        guard let parameters = try next() else { return nil }
        return try client.decode(method, parameters)
    }
}
