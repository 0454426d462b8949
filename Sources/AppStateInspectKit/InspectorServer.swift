import NIOCore
import NIOHTTP1
import NIOPosix

/// The inspector's HTTP server: binds the address, serves every connection with the page
/// and the hub's event stream, and says where it listens.
public final class InspectorServer: Sendable {
    /// The URL to open: the address the server is bound to, with the token.
    public let url: String

    private let channel: any Channel

    /// How much a viewer may leave unread before it is dropped: enough for the whole history
    /// of a tree of the default tree's size several times over.
    private static let writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 8 << 20, high: 32 << 20)

    /// Binds the address and starts serving.
    /// - Parameters:
    ///   - address: Where to listen; port 0 for any free port.
    ///   - token: The token every request must carry.
    ///   - hub: The history and event stream to serve.
    ///   - group: The event loops to serve on.
    /// - Throws: NIO's error when the address cannot be bound.
    public init(address: ListenAddress, token: InspectorToken, hub: InspectorHub, group: any EventLoopGroup) throws {
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: Self.writeBufferWaterMark)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(InspectorHTTPHandler(token: token, hub: hub))
                }
            }
            .bind(host: address.host, port: address.port)
            .wait()
        let port = channel.localAddress?.port ?? address.port
        url = "http://\(address.urlHost):\(port)/?token=\(token.text)"
    }

    /// Waits until the server stops, which it does only when the process ends.
    /// - Throws: NIO's error if the listening socket fails.
    public func wait() throws {
        try channel.closeFuture.wait()
    }
}
