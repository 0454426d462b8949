import AppStateHTTP
import NIOCore
import NIOPosix

/// `appstate-gateway` running: the HTTP server, the upstream `Watch`es and the pool that
/// makes the daemon's calls, as one object that tests start in-process.
public final class GatewayServer: Sendable {
    /// Where it listens.
    public let addresses: [HTTPListenerAddress]
    /// Who may use it.
    public let access: GatewayAccess
    /// What it counted.
    public let statistics: GatewayStatistics

    private let server: HTTPServer
    private let feeds: WatchFeeds
    private let pool: NIOThreadPool
    private let keepAlive: RepeatedTask

    /// How many threads make calls and read files at once; more calls wait their turn.
    static let poolThreads = 4

    /// Binds the endpoints and starts serving.
    /// - Parameters:
    ///   - configuration: What to serve, where and to whom.
    ///   - group: The event loops to serve on.
    /// - Throws: ``HTTPServerError`` when an endpoint cannot be bound, ``GatewayError`` when an
    ///   origin is malformed.
    public init(configuration: GatewayConfiguration, group: any EventLoopGroup) throws {
        statistics = GatewayStatistics()
        feeds = WatchFeeds(socketPath: configuration.socketPath, statistics: statistics)
        pool = NIOThreadPool(numberOfThreads: Self.poolThreads)
        pool.start()
        let responder = GatewayResponder(configuration: configuration, feeds: feeds, pool: pool)
        do {
            server = try HTTPServer(
                endpoints: configuration.endpoints, limits: configuration.limits, headers: GatewayResponder.headers, group: group,
                responder: responder)
            addresses = server.addresses
            access = try GatewayAccess(token: configuration.token, origins: configuration.origins, listeners: server.addresses)
        } catch {
            try? pool.syncShutdownGracefully()
            throw error
        }
        responder.start(with: access)
        let (seconds, attoseconds) = configuration.keepAliveInterval.components
        let interval = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        keepAlive = group.next().scheduleRepeatedTask(initialDelay: interval, delay: interval) { [feeds] _ in feeds.keepAlive() }
    }

    /// The URL of the first listener, e.g. `http://127.0.0.1:8080`, or `unix:PATH`.
    public var url: String { addresses.first?.url ?? "" }

    /// How many pages follow the daemon through the gateway.
    public var streamCount: Int { feeds.streamCount }

    /// How many upstream `Watch`es run: one per tree and subtree that pages follow.
    public var watchCount: Int { feeds.feedCount }

    /// Waits until the server stops, which it does only through ``close()`` or when the
    /// process ends.
    /// - Throws: NIO's error if a listening socket fails.
    public func wait() throws {
        try server.wait()
    }

    /// Stops listening and following the daemon.
    public func close() {
        keepAlive.cancel()
        server.close()
        feeds.stopAll()
        pool.shutdownGracefully { _ in }
    }
}
