import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The answer to one request: written once, as a whole response or as the start of an event
/// stream, from any thread.
public final class HTTPExchange: Sendable {
    private let channel: any Channel
    private let version: HTTPVersion
    private let keepAlive: Bool
    private let defaultHeaders: [(name: String, value: String)]
    private let streamBufferLimit: Int
    private let openStreams: OpenEventStreams
    /// Fields added after the response's own, such as an access policy's cookie.
    private let addedHeaders: [(name: String, value: String)]
    /// Shared by every view of the exchange that ``adding(_:)`` makes, so it is answered once.
    private let answered: NIOLockedValueBox<Bool>

    init(
        channel: any Channel, version: HTTPVersion, keepAlive: Bool, defaultHeaders: [(name: String, value: String)], streamBufferLimit: Int,
        openStreams: OpenEventStreams, addedHeaders: [(name: String, value: String)] = [],
        answered: NIOLockedValueBox<Bool> = NIOLockedValueBox(false)
    ) {
        self.channel = channel
        self.version = version
        self.keepAlive = keepAlive
        self.defaultHeaders = defaultHeaders
        self.streamBufferLimit = streamBufferLimit
        self.openStreams = openStreams
        self.addedHeaders = addedHeaders
        self.answered = answered
    }

    /// The same exchange, whose answer carries more header fields after its own.
    /// - Parameter headers: The fields, such as the ones an ``HTTPRouter``'s steps grant.
    /// - Returns: An exchange answered once with this one: an answer through either counts.
    public func adding(_ headers: [(name: String, value: String)]) -> HTTPExchange {
        guard !headers.isEmpty else { return self }
        return HTTPExchange(
            channel: channel, version: version, keepAlive: keepAlive, defaultHeaders: defaultHeaders, streamBufferLimit: streamBufferLimit,
            openStreams: openStreams, addedHeaders: addedHeaders + headers, answered: answered)
    }

    /// Writes the response; the connection stays open for the next request when the client
    /// keeps it alive. A second answer to the same request is ignored.
    /// - Parameter response: The response.
    public func respond(_ response: HTTPResponse) {
        guard claim() else { return }
        var headers = HTTPHeaders(defaultHeaders)
        headers.add(contentsOf: response.headers)
        headers.add(contentsOf: addedHeaders)
        headers.add(name: "Content-Length", value: String(response.body.count))
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        let body = ByteBuffer(bytes: response.body)
        let keepAlive = keepAlive
        let channel = channel
        channel.eventLoop.execute {
            channel.write(HTTPServerResponsePart.head(head), promise: nil)
            if body.readableBytes > 0 { channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil) }
            channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        }
    }

    /// Answers with a Server-Sent Events stream (`text/event-stream`): the head now, the
    /// events as ``EventStream/send(_:)`` gives them, until either side closes or the server
    /// shuts down (``HTTPServer/shutdown()``).
    /// - Parameter headers: More header fields for the head.
    /// - Returns: The stream; if the request was answered already, one that is closed.
    public func openEventStream(headers extra: [(name: String, value: String)] = []) -> EventStream {
        let stream = EventStream(channel: channel, limit: streamBufferLimit)
        guard claim() else {
            stream.close()
            return stream
        }
        var headers = HTTPHeaders(defaultHeaders)
        headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        headers.add(contentsOf: extra)
        headers.add(contentsOf: addedHeaders)
        let head = HTTPResponseHead(version: version, status: .ok, headers: headers)
        channel.writeAndFlush(HTTPServerResponsePart.head(head), promise: nil)
        openStreams.insert(stream)
        return stream
    }

    private func claim() -> Bool {
        answered.withLockedValue { answered in
            defer { answered = true }
            return !answered
        }
    }
}
