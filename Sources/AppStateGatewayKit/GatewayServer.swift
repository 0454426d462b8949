import AppStateHTTP
import AppStateWebServices
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `appstate-gateway` running: the HTTP server, the upstream `Watch`es and the pool that
/// makes the daemon's calls, as one object that tests start in-process and the executable
/// runs as ``services`` in a service group.
public final class GatewayServer: Sendable {
    /// Where it listens.
    public let addresses: [HTTPListenerAddress]
    /// Who may use it: the web front-ends' access policy with the token in any of its ways,
    /// the cookie, and the `Origin` check.
    public let policy: WebAccessPolicy
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
    /// - Throws: `HTTPServerError` when an endpoint cannot be bound, ``GatewayError`` when an
    ///   origin is malformed.
    public init(configuration: GatewayConfiguration, group: any EventLoopGroup) throws {
        statistics = GatewayStatistics()
        feeds = WatchFeeds(socketPath: configuration.socketPath, statistics: statistics)
        pool = NIOThreadPool(numberOfThreads: Self.poolThreads)
        pool.start()
        let responder = GatewayResponder(configuration: configuration, feeds: feeds, pool: pool)
        do {
            server = try HTTPServer(
                endpoints: configuration.endpoints, limits: configuration.limits,
                headers: WebAccessPolicy.securityHeaders(contentSecurityPolicy: GatewayResponder.contentSecurityPolicy), group: group,
                responder: responder)
            addresses = server.addresses
            do {
                policy = try WebAccessPolicy(
                    token: configuration.token, carriers: [.query, .bearer, .cookie], name: "appstate-gateway", origins: configuration.origins,
                    listeners: server.addresses)
            } catch {
                server.close()
                throw GatewayError(error.description)
            }
        } catch {
            try? pool.syncShutdownGracefully()
            throw error
        }
        responder.start(with: policy)
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

    /// The gateway as services of a group, in the order they start: its followers of the
    /// daemon, which stop at the graceful shutdown with the keep-alive and the calls' pool, and
    /// its HTTP server, which a graceful shutdown stops first (in reverse), so that it stops
    /// listening and ends the pages' streams before the followers stop.
    /// - Parameter onRun: Called when the HTTP server's service starts, such as to print ``url``.
    public func services(onRun: @escaping @Sendable () -> Void = {}) -> [any Service] {
        [ShutdownService(stop: close), HTTPServerService(server: server, onRun: onRun)]
    }

    /// Stops listening and following the daemon.
    public func close() {
        keepAlive.cancel()
        server.close()
        feeds.stopAll()
        pool.shutdownGracefully { _ in }
    }
}
