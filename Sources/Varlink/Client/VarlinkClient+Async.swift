import VarlinkJSON

extension VarlinkClient {
    /// Calls a method and waits for its reply without blocking a cooperative thread.
    ///
    /// Cancelling the task closes the connection, because Varlink has no way to cancel
    /// one call and keep the connection in step.
    /// - Parameters:
    ///   - method: The fully-qualified method name.
    ///   - parameters: The input parameters.
    /// - Returns: The reply's parameters.
    /// - Throws: ``VarlinkError`` for an error reply; ``VarlinkClientError`` when the
    ///   connection fails or times out.
    public func call(method: String, parameters: [String: JSONValue] = [:]) async throws -> [String: JSONValue] {
        try await offload { try self.call(method: method, parameters: parameters) }
    }

    /// Calls a method with typed parameters and reply without blocking a cooperative thread.
    /// - Parameters:
    ///   - method: The method, e.g. `GetCurrent.self`.
    ///   - parameters: The input parameters.
    /// - Returns: The decoded reply.
    /// - Throws: ``VarlinkError`` for an error reply; ``VarlinkClientError`` when the
    ///   connection fails or the reply does not match.
    public func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) async throws -> Method.Reply {
        try await offload { try self.call(method, parameters) }
    }

    /// Calls a method with `more` and delivers its replies as they arrive.
    ///
    /// The stream ends after the final reply, or with the error the service answered or
    /// the connection failed with. Ending iteration early (or cancelling the task) closes
    /// the connection, the only way Varlink offers to stop a stream.
    /// - Parameters:
    ///   - method: The fully-qualified method name.
    ///   - parameters: The input parameters.
    /// - Returns: The replies' parameters.
    public func replies(method: String, parameters: [String: JSONValue] = [:]) -> AsyncThrowingStream<[String: JSONValue], any Error> {
        replies(method: method, parameters: parameters) { $0 }
    }

    /// Calls a method with `more` and delivers its decoded replies as they arrive.
    /// - Parameters:
    ///   - method: The method, e.g. `Watch.self`.
    ///   - parameters: The input parameters.
    /// - Returns: The decoded replies; a reply that does not match ends the stream with
    ///   ``VarlinkClientError/Kind/invalidReply``.
    public func replies<Method: VarlinkMethod>(
        _ method: Method.Type, _ parameters: Method.Parameters
    ) -> AsyncThrowingStream<Method.Reply, any Error> {
        replies(method: Method.name, parameters: parameters.parameters) { [self] in try decode(method, $0) }
    }

    /// Reads the stream on a thread of its own and converts each reply there, so that no
    /// task (and no actor a caller happens to be isolated to) is involved per reply.
    private func replies<Element: Sendable>(
        method: String,
        parameters: [String: JSONValue],
        convert: @escaping @Sendable ([String: JSONValue]) throws -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        let (replies, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        continuation.onTermination = { [self] termination in
            if case .cancelled = termination { close() }
        }
        DetachedThread.run { [self] in
            do {
                var pending = try self.stream(method: method, parameters: parameters)
                while let reply = try pending.next() {
                    let element: Element
                    do {
                        element = try convert(reply)
                    } catch {
                        // The service is still streaming replies nobody will read.
                        close()
                        throw error
                    }
                    if case .terminated = continuation.yield(element) { return }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return replies
    }

    private func offload<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                DetachedThread.run { continuation.resume(with: Result { try body() }) }
            }
        } onCancel: {
            close()
        }
    }
}
