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
    private let answered = NIOLockedValueBox(false)

    init(channel: any Channel, version: HTTPVersion, keepAlive: Bool, defaultHeaders: [(name: String, value: String)], streamBufferLimit: Int) {
        self.channel = channel
        self.version = version
        self.keepAlive = keepAlive
        self.defaultHeaders = defaultHeaders
        self.streamBufferLimit = streamBufferLimit
    }

    /// Writes the response; the connection stays open for the next request when the client
    /// keeps it alive. A second answer to the same request is ignored.
    /// - Parameter response: The response.
    public func respond(_ response: HTTPResponse) {
        guard claim() else { return }
        var headers = HTTPHeaders(defaultHeaders)
        headers.add(contentsOf: response.headers)
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
    /// events as ``EventStream/send(_:)`` gives them, until either side closes.
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
        let head = HTTPResponseHead(version: version, status: .ok, headers: headers)
        channel.writeAndFlush(HTTPServerResponsePart.head(head), promise: nil)
        return stream
    }

    private func claim() -> Bool {
        answered.withLockedValue { answered in
            defer { answered = true }
            return !answered
        }
    }
}
