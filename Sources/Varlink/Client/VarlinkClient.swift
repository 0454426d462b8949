import Synchronization
import VarlinkJSON

/// A Varlink client over a Unix stream socket: one connection, calls answered in order.
///
/// ```swift
/// let client = try VarlinkClient(path: "/run/org.example.ping")
/// let current = try client.call(GetCurrent.self, .init(path: "session"))
/// var watch = try client.stream(method: Watch.name)
/// while let reply = try watch.next() { … }
/// ```
///
/// Calls block the calling thread (with ``timeout`` as the limit for each answer); the
/// async variants in `VarlinkClient+Async.swift` run them on a thread of their own. Calls
/// from several threads are serialised, because Varlink matches replies to calls only by
/// their order on the connection. Error replies are thrown as ``VarlinkError``; failures
/// of the connection as ``VarlinkClientError``, after which the client is unusable.
public final class VarlinkClient: Sendable {
    /// The limit for messages received when none is given: large enough for the snapshot
    /// of any realistic tree, small enough that a broken service cannot exhaust memory.
    public static let defaultMaximumMessageSize = 64 << 20

    /// The socket address connected to.
    public let path: String
    /// How long a call waits for its answer; `nil` waits forever.
    public let timeout: Duration?

    private let socket: UnixSocket
    private let state: Mutex<State>

    private struct State {
        var decoder: VarlinkFrameDecoder
        /// Set while a call with `more` has not received its final reply.
        var streaming = false
        /// Set once the connection failed; every later call reports it again.
        var failure: VarlinkClientError?
    }

    /// Connects to a Varlink service.
    /// - Parameters:
    ///   - path: A socket path, `unix:PATH` as Varlink addresses are written, or `@NAME`
    ///     for Linux's abstract namespace.
    ///   - timeout: How long to wait for the connection and for each answer; `nil` waits forever.
    ///   - maximumMessageSize: The largest reply accepted, in bytes.
    /// - Throws: ``VarlinkClientError`` saying whether the socket does not exist, may not be
    ///   used, has nobody listening, or did not accept in time.
    public init(
        path: String,
        timeout: Duration? = .seconds(30),
        maximumMessageSize: Int = VarlinkClient.defaultMaximumMessageSize
    ) throws(VarlinkClientError) {
        self.path = path
        self.timeout = timeout
        socket = try UnixSocket.connect(to: path, timeout: timeout)
        state = Mutex(State(decoder: VarlinkFrameDecoder(maximumMessageSize: maximumMessageSize)))
    }

    deinit {
        socket.close()
    }

    /// Calls a method and waits for its reply.
    /// - Parameters:
    ///   - method: The fully-qualified method name.
    ///   - parameters: The input parameters.
    /// - Returns: The reply's parameters.
    /// - Throws: ``VarlinkError`` for an error reply; ``VarlinkClientError`` when the
    ///   connection fails, the answer takes longer than ``timeout``, or a stream is running.
    public func call(method: String, parameters: [String: JSONValue] = [:]) throws -> [String: JSONValue] {
        let reply = try exchange(VarlinkCall(method: method, parameters: parameters), deadline: deadline())
        if let error = reply.varlinkError { throw error }
        guard !reply.continues else {
            throw fail(VarlinkClientError(.protocolViolation, socketPath: path, detail: "\"continues\" in the reply to a call without \"more\""))
        }
        return reply.parameters
    }

    /// Calls a method with typed parameters and reply.
    /// - Parameters:
    ///   - method: The method, e.g. `GetCurrent.self`.
    ///   - parameters: The input parameters.
    /// - Returns: The decoded reply.
    /// - Throws: ``VarlinkError`` for an error reply; ``VarlinkClientError`` when the
    ///   connection fails or the reply does not match the method's reply type.
    public func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) throws -> Method.Reply {
        try decode(method, call(method: Method.name, parameters: parameters.parameters))
    }

    /// Sends a call with `oneway`: the service acts on it and does not reply.
    /// - Parameters:
    ///   - method: The fully-qualified method name.
    ///   - parameters: The input parameters.
    /// - Throws: ``VarlinkClientError`` when the connection fails or a stream is running.
    public func send(method: String, parameters: [String: JSONValue] = [:]) throws {
        let call = VarlinkCall(method: method, parameters: parameters, oneway: true)
        let deadline = deadline()
        try state.withLock { state throws(VarlinkClientError) in
            try transmit(call, in: &state, deadline: deadline)
        }
    }

    /// Calls a method with `more` and returns its replies one by one.
    ///
    /// Until the stream has delivered its final reply (or an error), the connection belongs
    /// to it and other calls fail with ``VarlinkClientError/Kind/busy``. A client no longer
    /// interested closes the connection, as the Varlink specification says. Waiting for the
    /// next reply has no time limit, since changes come whenever they come.
    /// - Parameters:
    ///   - method: The fully-qualified method name.
    ///   - parameters: The input parameters.
    /// - Returns: The stream of replies.
    /// - Throws: ``VarlinkClientError`` when the call cannot be sent or a stream is running.
    public func stream(method: String, parameters: [String: JSONValue] = [:]) throws -> VarlinkReplyStream {
        let call = VarlinkCall(method: method, parameters: parameters, more: true)
        let deadline = deadline()
        try state.withLock { state throws(VarlinkClientError) in
            try transmit(call, in: &state, deadline: deadline)
            state.streaming = true
        }
        return VarlinkReplyStream(client: self)
    }

    /// Closes the connection. A thread blocked in a call or stream on this client wakes
    /// up with ``VarlinkClientError/Kind/connectionClosed``; the descriptor itself is
    /// released when the client is deallocated, so no other thread can be left holding a
    /// descriptor number that has been reused.
    public func close() {
        socket.shutdown()
    }

    /// Receives the next reply of the running stream; used by ``VarlinkReplyStream``.
    func nextStreamReply() throws -> VarlinkReply {
        try state.withLock { state throws(VarlinkClientError) -> VarlinkReply in
            if let failure = state.failure { throw failure }
            let reply = try receive(in: &state, deadline: nil)
            if !reply.continues || reply.error != nil { state.streaming = false }
            return reply
        }
    }

    /// Decodes a reply into a method's reply type, reporting a mismatch as a client error,
    /// since it means the service speaks a different version of the interface.
    func decode<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: [String: JSONValue]) throws -> Method.Reply {
        do {
            return try Method.Reply(parameters: parameters)
        } catch {
            throw VarlinkClientError(
                .invalidReply, socketPath: path, detail: "\(Method.name): \(error.name) \(JSONValue.object(error.parameters).jsonText)")
        }
    }

    private func exchange(_ call: VarlinkCall, deadline: ContinuousClock.Instant?) throws(VarlinkClientError) -> VarlinkReply {
        try state.withLock { state throws(VarlinkClientError) -> VarlinkReply in
            try transmit(call, in: &state, deadline: deadline)
            return try receive(in: &state, deadline: deadline)
        }
    }

    private func transmit(_ call: VarlinkCall, in state: inout State, deadline: ContinuousClock.Instant?) throws(VarlinkClientError) {
        try ready(state)
        do throws(VarlinkClientError) {
            try socket.send(call.encoded, deadline: deadline)
        } catch {
            throw fail(error, in: &state)
        }
    }

    private func receive(in state: inout State, deadline: ContinuousClock.Instant?) throws(VarlinkClientError) -> VarlinkReply {
        while true {
            do throws(VarlinkProtocolError) {
                if let reply = try state.decoder.nextReply() { return reply }
            } catch {
                throw fail(VarlinkClientError(.protocolViolation, socketPath: path, detail: error.description), in: &state)
            }
            do throws(VarlinkClientError) {
                try socket.receive(into: &state.decoder, deadline: deadline)
            } catch {
                throw fail(error, in: &state)
            }
        }
    }

    private func ready(_ state: State) throws(VarlinkClientError) {
        if let failure = state.failure { throw failure }
        if state.streaming { throw VarlinkClientError(.busy, socketPath: path) }
    }

    /// Records a connection failure so that later calls report it instead of reading a
    /// reply that belongs to an earlier call.
    private func fail(_ error: VarlinkClientError, in state: inout State) -> VarlinkClientError {
        state.failure = error
        socket.shutdown()
        return error
    }

    private func fail(_ error: VarlinkClientError) -> VarlinkClientError {
        state.withLock { state in fail(error, in: &state) }
    }

    private func deadline() -> ContinuousClock.Instant? {
        timeout.map { ContinuousClock.now + $0 }
    }
}
