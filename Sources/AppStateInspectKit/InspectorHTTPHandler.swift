import NIOCore
import NIOHTTP1

/// Answers one HTTP connection of the inspector: the page, the event stream, or a refusal,
/// as ``InspectorRoute`` decides.
final class InspectorHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// What every answer carries: nothing cached (the page holds the token), nothing sent
    /// to other sites, no framing by other pages, and a page that may load nothing from
    /// anywhere else (everything it needs is inline).
    private static let commonHeaders = [
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; frame-ancestors 'none'"
        ),
    ]

    private let token: InspectorToken
    private let hub: InspectorHub
    private var request: HTTPRequestHead?
    private var viewer: Int?

    init(token: InspectorToken, hub: InspectorHub) {
        self.token = token
        self.hub = hub
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            // No route takes a body; it is read and dropped.
            break
        case .end:
            guard let head = request, viewer == nil else { return }
            request = nil
            answer(head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let viewer { hub.unsubscribe(viewer) }
        viewer = nil
        context.fireChannelInactive()
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch InspectorRoute.decide(method: head.method.rawValue, target: head.uri, token: token) {
        case .page:
            respond(head, status: .ok, type: "text/html; charset=utf-8", body: InspectorPage.bytes, context: context)
        case .events:
            stream(head, context: context)
        case .entry(let sequence):
            if let text = hub.entry(sequence: sequence) {
                respond(head, status: .ok, type: "application/json", body: Array(text.utf8), context: context)
            } else {
                respond(
                    head, status: .notFound, type: "text/plain; charset=utf-8",
                    body: Array("The inspector no longer holds entry \(sequence).\n".utf8), context: context)
            }
        case .refused(let status, let reason):
            respond(
                head, status: HTTPResponseStatus(statusCode: status), type: "text/plain; charset=utf-8",
                body: Array((reason + "\n").utf8), context: context)
        }
    }

    private func respond(
        _ head: HTTPRequestHead, status: HTTPResponseStatus, type: String, body: [UInt8],
        context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders(Self.commonHeaders)
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.count))
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let keepAlive = head.isKeepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// Starts the Server-Sent Events stream and subscribes the connection to the hub. A
    /// viewer whose unread messages pass the channel's high water mark is closed rather
    /// than allowed to grow the inspector's memory; its browser reconnects by itself and
    /// starts again from the current entry.
    private func stream(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(Self.commonHeaders)
        headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        let channel = context.channel
        viewer = hub.subscribe { message in
            guard channel.isWritable else {
                channel.close(promise: nil)
                return
            }
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: message))), promise: nil)
        }
    }
}
