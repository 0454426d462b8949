import AppStateHTTP

/// Who may use a gateway: requests must carry its token, and a request from a page (one
/// with an `Origin`) must come from the gateway's own origin or one `--origin` lists.
///
/// The token may come as `Authorization: Bearer TOKEN`, as `?token=TOKEN`, or as the
/// cookie the gateway sets when it is sent either of the other ways: a kiosk opens
/// `http://127.0.0.1:PORT/?token=…` once, and the page's later requests (the module, the
/// event stream, the calls) carry the cookie. The cookie is `HttpOnly` (no script reads
/// it) and `SameSite=Strict` (no other site's page sends it). Its name carries the port,
/// since browsers keep cookies by host alone and two gateways on one host have two tokens.
///
/// The `Origin` check keeps other sites' pages in the browser out even when they guess the
/// address: they are refused 403 and never get CORS headers. Pages of a listed origin get
/// them, with credentials, so a front-end served from elsewhere can call the gateway.
public struct GatewayAccess: Sendable {
    /// The token.
    public let token: AccessToken
    /// The name of the cookie that carries it.
    public let cookieName: String
    /// The origins `--origin` lists, which get CORS headers.
    public let origins: Set<String>
    /// The gateway's own origins: those of its loopback listeners.
    public let ownOrigins: Set<String>

    /// Creates the rules.
    /// - Parameters:
    ///   - token: The token requests must carry.
    ///   - origins: Other origins whose pages may use the gateway, e.g. `https://kiosk.example`.
    ///   - listeners: Where the gateway listens, for its own origins and its cookie's name.
    /// - Throws: ``GatewayError`` when an origin is not `http(s)://HOST[:PORT]`.
    public init(token: AccessToken, origins: [String], listeners: [HTTPListenerAddress]) throws(GatewayError) {
        self.token = token
        self.origins = Set(try origins.map { origin throws(GatewayError) in try Self.normalizedOrigin(origin) })
        ownOrigins = Set(listeners.flatMap(\.loopbackOrigins))
        let port = listeners.lazy.compactMap { listener -> Int? in
            if case .tcp(_, let port) = listener { return port } else { return nil }
        }.first
        cookieName = "appstate-gateway" + (port.map { "-\($0)" } ?? "")
    }

    /// What a request that passed may be answered with beyond its route: the cookie, when
    /// the token came another way, and CORS headers for a listed origin.
    public struct Grant: Hashable, Sendable {
        /// The request's origin, when it is one `--origin` lists.
        public var crossOrigin: String?
        /// Whether to set the cookie.
        public var setsCookie: Bool

        /// Creates a grant.
        /// - Parameters:
        ///   - crossOrigin: The listed origin the request came from.
        ///   - setsCookie: Whether to set the cookie.
        public init(crossOrigin: String?, setsCookie: Bool) {
            self.crossOrigin = crossOrigin
            self.setsCookie = setsCookie
        }
    }

    /// Checks the request's `Origin`.
    /// - Parameter request: The request.
    /// - Returns: The listed origin that needs CORS headers, or `nil` for none (no `Origin`,
    ///   or the gateway's own).
    /// - Throws: ``GatewayRefusal/originNotAllowed(_:)`` for any other origin, `null` included.
    public func checkOrigin(of request: HTTPRequest) throws(GatewayRefusal) -> String? {
        guard let origin = request.header("Origin") else { return nil }
        let normalized = origin.lowercased()
        if ownOrigins.contains(normalized) { return nil }
        if origins.contains(normalized) { return normalized }
        throw .originNotAllowed(origin)
    }

    /// Checks the request's token.
    /// - Parameter request: The request.
    /// - Returns: Whether the answer should set the cookie: the token came as a header or in
    ///   the query, and not yet as the cookie.
    /// - Throws: ``GatewayRefusal/unauthorized`` when no way the request carries matches.
    public func checkToken(of request: HTTPRequest) throws(GatewayRefusal) -> Bool {
        let cookie = request.cookies(named: cookieName).contains { token.matches($0) }
        if let authorization = request.header("Authorization"), authorization.lowercased().hasPrefix("bearer "),
            token.matches(Substring(authorization.dropFirst("bearer ".count)).drop { $0 == " " })
        {
            return !cookie
        }
        if let presented = request.queryValue("token"), token.matches(Substring(presented)) { return !cookie }
        guard cookie else { throw .unauthorized }
        return false
    }

    /// The header fields a grant adds to its answer.
    /// - Parameter grant: What the checks allowed.
    public func headers(for grant: Grant) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if grant.setsCookie {
            headers.append(("Set-Cookie", "\(cookieName)=\(token.text); Path=/; HttpOnly; SameSite=Strict"))
        }
        if let origin = grant.crossOrigin {
            headers += [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"), ("Vary", "Origin")]
        }
        return headers
    }

    /// An origin as browsers send it: scheme and host in lowercase, no path, no trailing slash.
    /// - Parameter origin: An origin as `--origin` takes it, e.g. `https://kiosk.example`.
    /// - Returns: The origin as a browser's `Origin` header would carry it.
    /// - Throws: ``GatewayError`` when it is not `http(s)://HOST[:PORT]`.
    public static func normalizedOrigin(_ origin: String) throws(GatewayError) -> String {
        var text = origin.lowercased()
        if text.hasSuffix("/") { text.removeLast() }
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            if !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains("@") { return text }
        }
        throw GatewayError("--origin takes an origin such as https://kiosk.example or http://127.0.0.1:8080, not \"\(origin)\"")
    }
}
