import AppStateCore
import AppStateIPC
import Glibc
import Synchronization

/// The Chrome DevTools Protocol over a browser's `--remote-debugging-pipe`: JSON messages
/// ending in a NUL byte, commands written to the browser's descriptor 3, replies and events
/// read from its descriptor 4.
///
/// That is Varlink's framing, so the messages are split by the same ``VarlinkFrameDecoder``
/// and parsed by the same JSON codec as the daemon's replies: no WebSocket, and no port that
/// another local user could connect to.
public final class DevToolsConnection: Sendable {
    /// The largest message accepted: a screenshot of a large screen arrives as one message.
    static let maximumMessageSize = 256 << 20

    private struct State {
        var nextIdentifier = 1
        var pending: [Int: (method: String, reply: DevToolsReply)] = [:]
        var closed = false
    }

    private let commands: Int32
    private let messages: Int32
    private let state = Mutex(State())
    /// Held while a command is numbered and written, so that the order on the pipe is the order
    /// of the identifiers; not `state`, which the reading thread needs to match replies while a
    /// write waits for the browser to read: a browser blocked writing to us reads nothing.
    private let writing = Mutex(())
    private let eventSink: AsyncStream<DevToolsEvent>.Continuation

    /// The browser's events, in the order it sent them; the stream ends when the pipe closes.
    public let events: AsyncStream<DevToolsEvent>

    /// Takes over both descriptors and starts reading on a thread of its own.
    /// - Parameters:
    ///   - commands: The descriptor commands are written to (the browser's descriptor 3).
    ///   - messages: The descriptor replies and events are read from (its descriptor 4).
    public init(commands: Int32, messages: Int32) {
        self.commands = commands
        self.messages = messages
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        DetachedThread.run { [self] in read() }
    }

    deinit {
        Glibc.close(commands)
        Glibc.close(messages)
    }

    /// Sends a command and waits for its result.
    /// - Parameters:
    ///   - method: The command, e.g. `Page.navigate`.
    ///   - parameters: Its parameters.
    ///   - session: The target session it is for; nil for the browser itself.
    /// - Returns: The command's result.
    /// - Throws: ``DevToolsError`` for an error reply or a closed pipe.
    @discardableResult
    public func call(_ method: String, _ parameters: [String: JSONValue] = [:], session: String? = nil) async throws -> [String: JSONValue] {
        try await send(method, parameters, session: session).value
    }

    /// Sends a command without waiting for its result: the browser answers the commands of
    /// one session in the order they were sent.
    /// - Parameters:
    ///   - method: The command.
    ///   - parameters: Its parameters.
    ///   - session: The target session it is for; nil for the browser itself.
    /// - Returns: The reply, to await.
    public func send(_ method: String, _ parameters: [String: JSONValue] = [:], session: String? = nil) -> DevToolsReply {
        let reply = DevToolsReply()
        let written: Bool = writing.withLock { _ in
            let identifier: Int? = state.withLock { state in
                guard !state.closed else { return nil }
                defer { state.nextIdentifier += 1 }
                state.pending[state.nextIdentifier] = (method, reply)
                return state.nextIdentifier
            }
            guard let identifier else { return false }
            var message: [String: JSONValue] = ["id": .number(Double(identifier)), "method": .string(method), "params": .object(parameters)]
            if let session { message["sessionId"] = .string(session) }
            var bytes = JSONValue.object(message).jsonBytes
            bytes.append(0)
            return writeAll(bytes)
        }
        if !written {
            _ = shutdownCommands()
            reply.settle(.failure(.closed))
        }
        return reply
    }

    /// Closes the command pipe, which a browser takes as the order to exit; pending commands
    /// fail with ``DevToolsError/closed``.
    public func close() {
        _ = shutdownCommands()
    }

    private func shutdownCommands() -> [DevToolsReply] {
        let pending = state.withLock { state in
            state.closed = true
            defer { state.pending.removeAll() }
            return state.pending.values.map(\.reply)
        }
        for reply in pending { reply.settle(.failure(.closed)) }
        return pending
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(commands, $0.baseAddress! + offset, $0.count - offset) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    private func read() {
        var decoder = VarlinkFrameDecoder(maximumMessageSize: Self.maximumMessageSize)
        reading: while true {
            let count = withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 1) { chunk in
                let count = Glibc.read(messages, chunk.baseAddress, chunk.count)
                if count > 0 { decoder.append(UnsafeRawBufferPointer(rebasing: chunk[..<count])) }
                return count
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            do {
                while let frame = try decoder.nextFrame() { try receive(frame) }
            } catch {
                // Nothing after a message that cannot be read can be trusted to match its
                // command: the connection ends as if the browser had closed it.
                break reading
            }
        }
        _ = shutdownCommands()
        eventSink.finish()
    }

    private func receive(_ frame: [UInt8]) throws(DevToolsError) {
        guard case .object(let message)? = try? JSONValue(jsonBytes: frame) else {
            throw .malformedMessage("not a JSON object")
        }
        guard case .number(let identifier)? = message["id"] else {
            guard case .string(let method)? = message["method"] else { throw .malformedMessage("neither a reply nor an event") }
            let parameters: [String: JSONValue] = if case .object(let parameters)? = message["params"] { parameters } else { [:] }
            let session: String? = if case .string(let session)? = message["sessionId"] { session } else { nil }
            eventSink.yield(DevToolsEvent(method: method, parameters: parameters, session: session))
            return
        }
        guard let entry = state.withLock({ $0.pending.removeValue(forKey: Int(identifier)) }) else { return }
        if case .object(let error)? = message["error"] {
            let code = if case .number(let code)? = error["code"] { Int(code) } else { 0 }
            let text = if case .string(let text)? = error["message"] { text } else { "no message" }
            entry.reply.settle(.failure(.reply(method: entry.method, code: code, message: text)))
        } else if case .object(let result)? = message["result"] {
            entry.reply.settle(.success(result))
        } else {
            entry.reply.settle(.failure(.unexpectedReply(method: entry.method)))
        }
    }
}
