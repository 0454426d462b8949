import AppStateHTTP
import NIOConcurrencyHelpers
import NIOPosix

/// Answers the gateway's requests: its access policy's chain first (the origin, 403; a
/// preflight; the token, 401), then the route; calls and files are read on a thread pool,
/// never on the event loop.
final class GatewayResponder: HTTPResponder {
    /// What the gateway's pages may load and connect to: scripts and connections to the
    /// gateway itself only.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    private let configuration: GatewayConfiguration
    private let feeds: WatchFeeds
    private let pool: NIOThreadPool
    private let caller: DaemonCaller
    /// Whether the listeners are bound: the gateway's own origins are theirs, so a request that
    /// arrives before (a socket-activated gateway's first) waits for the policy.
    private enum Readiness {
        case starting([(HTTPRequest, HTTPExchange)])
        case started(HTTPRouter)
    }

    private let readiness = NIOLockedValueBox(Readiness.starting([]))

    init(configuration: GatewayConfiguration, feeds: WatchFeeds, pool: NIOThreadPool) {
        self.configuration = configuration
        self.feeds = feeds
        self.pool = pool
        caller = DaemonCaller(socketPath: configuration.socketPath)
    }

    func start(with policy: WebAccessPolicy) {
        let router = HTTPRouter(
            policy: policy, methods: ["GET", "POST"], requestHeaders: ["Authorization", "Content-Type", "Last-Event-ID"],
            refusal: Self.refusal
        ) { [weak self] request, exchange in
            self?.route(request, with: exchange, cookieName: policy.cookieName)
        }
        let waiting = readiness.withLockedValue { readiness -> [(HTTPRequest, HTTPExchange)] in
            defer { readiness = .started(router) }
            guard case .starting(let waiting) = readiness else { return [] }
            return waiting
        }
        for (request, exchange) in waiting { router.respond(to: request, with: exchange) }
    }

    func respond(to request: HTTPRequest, with exchange: HTTPExchange) {
        let started = readiness.withLockedValue { readiness -> HTTPRouter? in
            switch readiness {
            case .starting(let waiting):
                readiness = .starting(waiting + [(request, exchange)])
                return nil
            case .started(let router):
                return router
            }
        }
        started?.respond(to: request, with: exchange)
    }

    private func route(_ request: HTTPRequest, with exchange: HTTPExchange, cookieName: String) {
        do throws(GatewayRefusal) {
            switch try GatewayRoute.decide(request, allowList: configuration.allowList) {
            case .page(let path):
                let pages = configuration.pages
                if case .embedded = pages { return exchange.respond(pages.response(for: path)) }
                run { exchange.respond(pages.response(for: path)) }
            case .module:
                exchange.respond(HTTPResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")], body: GatewayPages.module))
            case .call(let method):
                let caller = caller
                run { exchange.respond(caller.call(method, body: request.body)) }
            case .watch(let watch):
                try feeds.subscribe(watch, exchange: exchange)
            case .clearSiteData:
                exchange.respond(SiteDataClearing.response(for: request, keeping: cookieName))
            }
        } catch {
            exchange.respond(Self.refusing(error))
        }
    }

    /// The answer to a request the policy refused, as the gateway's other refusals read.
    private static func refusal(_ refusal: WebAccessRefusal) -> HTTPResponse {
        refusing(refusal.origin.map(GatewayRefusal.originNotAllowed) ?? .unauthorized)
    }

    private static func refusing(_ refusal: GatewayRefusal) -> HTTPResponse {
        .json(status: refusal.status, refusal.json, headers: refusal.headers)
    }

    /// Runs blocking work (a call, a file) on the pool; if the pool has stopped, the gateway is
    /// shutting down and the work is dropped with its connection.
    private func run(_ work: @escaping @Sendable () -> Void) {
        pool.submit { state in
            if case .active = state { work() }
        }
    }
}
