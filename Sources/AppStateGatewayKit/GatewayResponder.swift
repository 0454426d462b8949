import AppStateHTTP
import NIOConcurrencyHelpers
import NIOPosix

/// Answers the gateway's requests: the origin first (403), then a preflight, then the token
/// (401), then the route; calls and files are read on a thread pool, never on the event loop.
final class GatewayResponder: HTTPResponder {
    /// What every answer carries: nothing cached (pages and replies hold state and the
    /// token's effects), nothing sent to other sites, no framing, and pages that load scripts
    /// and connect only to the gateway itself.
    static let headers = [
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        ),
    ]

    private let configuration: GatewayConfiguration
    private let feeds: WatchFeeds
    private let pool: NIOThreadPool
    private let caller: DaemonCaller
    /// Whether the listeners are bound: the gateway's own origins are theirs, so a request that
    /// arrives before (a socket-activated gateway's first) waits for them.
    private enum Readiness {
        case starting([(HTTPRequest, HTTPExchange)])
        case started(GatewayAccess)
    }

    private let readiness = NIOLockedValueBox(Readiness.starting([]))

    init(configuration: GatewayConfiguration, feeds: WatchFeeds, pool: NIOThreadPool) {
        self.configuration = configuration
        self.feeds = feeds
        self.pool = pool
        caller = DaemonCaller(socketPath: configuration.socketPath)
    }

    func start(with access: GatewayAccess) {
        let waiting = readiness.withLockedValue { readiness -> [(HTTPRequest, HTTPExchange)] in
            defer { readiness = .started(access) }
            guard case .starting(let waiting) = readiness else { return [] }
            return waiting
        }
        for (request, exchange) in waiting { respond(to: request, with: exchange) }
    }

    func respond(to request: HTTPRequest, with exchange: HTTPExchange) {
        let started = readiness.withLockedValue { readiness -> GatewayAccess? in
            switch readiness {
            case .starting(let waiting):
                readiness = .starting(waiting + [(request, exchange)])
                return nil
            case .started(let access):
                return access
            }
        }
        guard let access = started else { return }
        let crossOrigin: String?
        do {
            crossOrigin = try access.checkOrigin(of: request)
        } catch {
            return exchange.respond(Self.refusing(error, headers: []))
        }
        if GatewayRoute.isPreflight(request) {
            return exchange.respond(Self.preflight(access: access, crossOrigin: crossOrigin))
        }
        let setsCookie: Bool
        do {
            setsCookie = try access.checkToken(of: request)
        } catch {
            return exchange.respond(Self.refusing(error, headers: access.headers(for: .init(crossOrigin: crossOrigin, setsCookie: false))))
        }
        let headers = access.headers(for: GatewayAccess.Grant(crossOrigin: crossOrigin, setsCookie: setsCookie))
        do {
            try answer(request, with: exchange, headers: headers, access: access, crossOrigin: crossOrigin)
        } catch {
            exchange.respond(Self.refusing(error, headers: headers))
        }
    }

    private func answer(
        _ request: HTTPRequest, with exchange: HTTPExchange, headers: [(name: String, value: String)], access: GatewayAccess,
        crossOrigin: String?
    ) throws(GatewayRefusal) {
        switch try GatewayRoute.decide(request, allowList: configuration.allowList) {
        case .page(let path):
            let pages = configuration.pages
            if case .embedded = pages { return exchange.respond(Self.adding(headers, to: pages.response(for: path))) }
            run { exchange.respond(Self.adding(headers, to: pages.response(for: path))) }
        case .module:
            exchange.respond(
                HTTPResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")] + headers, body: GatewayPages.module))
        case .call(let method):
            let caller = caller
            run { exchange.respond(Self.adding(headers, to: caller.call(method, body: request.body))) }
        case .watch(let watch):
            try feeds.subscribe(watch, exchange: exchange, headers: headers)
        case .clearSiteData:
            exchange.respond(Self.adding(headers, to: SiteDataClearing.response(for: request, keeping: access.cookieName)))
        case .preflight:
            exchange.respond(Self.preflight(access: access, crossOrigin: crossOrigin))
        }
    }

    private static func refusing(_ refusal: GatewayRefusal, headers: [(name: String, value: String)]) -> HTTPResponse {
        .json(status: refusal.status, refusal.json, headers: refusal.headers + headers)
    }

    /// Runs blocking work (a call, a file) on the pool; if the pool has stopped, the gateway is
    /// shutting down and the work is dropped with its connection.
    private func run(_ work: @escaping @Sendable () -> Void) {
        pool.submit { state in
            if case .active = state { work() }
        }
    }

    private static func adding(_ headers: [(name: String, value: String)], to response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers += headers
        return response
    }

    /// The answer to `OPTIONS`, which carries no token: for a listed origin, what its requests
    /// may carry; for the gateway's own pages, which need no preflight, the methods served.
    private static func preflight(access: GatewayAccess, crossOrigin: String?) -> HTTPResponse {
        guard crossOrigin != nil else { return HTTPResponse(status: 204, headers: [("Allow", "GET, POST, OPTIONS")]) }
        return HTTPResponse(
            status: 204,
            headers: access.headers(for: GatewayAccess.Grant(crossOrigin: crossOrigin, setsCookie: false)) + [
                ("Access-Control-Allow-Methods", "GET, POST"),
                ("Access-Control-Allow-Headers", "Authorization, Content-Type, Last-Event-ID"),
                ("Access-Control-Max-Age", "600"),
            ])
    }
}
