import AppStateHTTP
import AppStateWebServices
import NIOCore

/// The inspector's HTTP server: binds the address, serves every connection with the page,
/// the hub's event stream and the kiosk's screenshots behind the inspector's access policy,
/// and says where it listens.
public final class InspectorServer: Sendable {
    /// The URL to open: the address the server is bound to, with the token.
    public let url: String

    private let server: HTTPServer

    /// How much a viewer may leave unread before it is dropped: enough for the whole history
    /// of a tree of the default tree's size several times over.
    private static let limits = HTTPServerLimits(streamBufferLimit: 32 << 20, backlog: 64)

    /// Binds the address and starts serving.
    /// - Parameters:
    ///   - address: Where to listen; port 0 for any free port.
    ///   - token: The token every request must carry.
    ///   - hub: The history and event stream to serve.
    ///   - screenshots: What takes the kiosk's screenshots.
    ///   - group: The event loops to serve on.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound.
    public init(
        address: ListenAddress, token: AccessToken, hub: InspectorHub, screenshots: InspectorScreenshots, group: any EventLoopGroup
    ) throws {
        let responder = InspectorResponder(hub: hub, screenshots: screenshots)
        server = try HTTPServer(
            endpoints: [.tcp(address)], limits: Self.limits,
            headers: WebAccessPolicy.securityHeaders(contentSecurityPolicy: InspectorRoute.contentSecurityPolicy), group: group,
            responder: HTTPRouter(policy: InspectorRoute.policy(token: token), refusal: InspectorResponder.refusal, routes: responder.respond))
        let port: Int
        if case .tcp(_, let bound)? = server.addresses.first { port = bound } else { port = address.port }
        url = "http://\(address.urlHost):\(port)/?token=\(token.text)"
    }

    /// The server as a service of the inspector's group: it stops listening and ends the
    /// viewers' streams at the graceful shutdown.
    /// - Parameter onRun: Called when the service starts, such as to print ``url``.
    public func service(onRun: @escaping @Sendable () -> Void = {}) -> HTTPServerService {
        HTTPServerService(server: server, onRun: onRun)
    }
}
