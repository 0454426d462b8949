import NIOCore
import NIOHTTP1

/// Reads one request at a time, head and body, and hands it whole to the responder. A body
/// beyond the limit is answered 413 as soon as its size is known, and the connection closed:
/// what is left of it is never read.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: any HTTPResponder
    private let limits: HTTPServerLimits
    private let defaultHeaders: [(name: String, value: String)]
    private let openStreams: OpenEventStreams
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var refused = false

    init(responder: any HTTPResponder, limits: HTTPServerLimits, defaultHeaders: [(name: String, value: String)], openStreams: OpenEventStreams) {
        self.responder = responder
        self.limits = limits
        self.defaultHeaders = defaultHeaders
        self.openStreams = openStreams
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
            body = []
            if let length = request.headers.first(name: "Content-Length").flatMap(Int.init), length > limits.maximumBodySize {
                return refuseBody(request, context: context)
            }
            // A client that asks before sending its body (`Expect: 100-continue`) is told to go on.
            if request.headers.first(name: "Expect")?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: .continue))), promise: nil)
            }
        case .body(var buffer):
            guard let request = head else { return }
            guard body.count + buffer.readableBytes <= limits.maximumBodySize else { return refuseBody(request, context: context) }
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let request = head else { return }
            head = nil
            let exchange = HTTPExchange(
                channel: context.channel, version: request.version, keepAlive: request.isKeepAlive, defaultHeaders: defaultHeaders,
                streamBufferLimit: limits.streamBufferLimit, openStreams: openStreams)
            let whole = HTTPRequest(method: request.method.rawValue, target: request.uri, headers: request.headers, body: body)
            body = []
            responder.respond(to: whole, with: exchange)
        }
    }

    private func refuseBody(_ request: HTTPRequestHead, context: ChannelHandlerContext) {
        refused = true
        head = nil
        body = []
        var headers = HTTPHeaders(defaultHeaders)
        let text = Array("The request body is larger than \(limits.maximumBodySize) bytes.\n".utf8)
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: .payloadTooLarge, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: text)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
            channel.close(promise: nil)
        }
    }
}
