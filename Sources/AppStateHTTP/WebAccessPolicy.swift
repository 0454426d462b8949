/// Who may use a web front-end of the daemon (the inspector, the gateway) and what every
/// answer carries: one policy, each front-end configured with the parts it needs.
///
/// - **The token.** Requests carry the front-end's ``AccessToken`` in the ways ``carriers``
///   lists: `?token=TOKEN`, `Authorization: Bearer TOKEN`, or the session cookie that the
///   answer sets when the token came another way. The cookie is `HttpOnly` (no script reads
///   it) and `SameSite=Strict` (no other site's page sends it); its name carries the port,
///   since browsers keep cookies by host alone and two front-ends on one host have two tokens.
/// - **The `Origin`.** When ``checksOrigin``, a request from a page (one with an `Origin`)
///   must come from the front-end's own loopback origin or one of ``origins``; other sites'
///   pages are refused even when they guess the address, and never get CORS headers. Pages of
///   a listed origin get them, with credentials, so that a front-end served from elsewhere can
///   use it.
/// - **The security headers.** Every answer, refusals included, is not cached (pages hold the
///   token), sends nothing to other sites, cannot be framed or sniffed, and carries the
///   front-end's `Content-Security-Policy` (``securityHeaders(contentSecurityPolicy:)``).
public struct WebAccessPolicy: Sendable {
    /// The ways a request may carry the token.
    public struct TokenCarriers: OptionSet, Hashable, Sendable {
        public let rawValue: Int

        /// Creates a set of carriers from its raw value.
        /// - Parameter rawValue: The bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// `?token=TOKEN` in the request target.
        public static let query = TokenCarriers(rawValue: 1 << 0)
        /// `Authorization: Bearer TOKEN`.
        public static let bearer = TokenCarriers(rawValue: 1 << 1)
        /// The session cookie, set when the token came another way.
        public static let cookie = TokenCarriers(rawValue: 1 << 2)
    }

    /// The token.
    public let token: AccessToken
    /// The ways requests may carry it.
    public let carriers: TokenCarriers
    /// The name of the session cookie: the front-end's name, and its port when it has one.
    public let cookieName: String
    /// Whether requests with an `Origin` are checked.
    public let checksOrigin: Bool
    /// The other origins whose pages may use the front-end, which get CORS headers.
    public let origins: Set<String>
    /// The front-end's own origins: those of its loopback listeners.
    public let ownOrigins: Set<String>

    /// Creates the policy.
    /// - Parameters:
    ///   - token: The token requests must carry.
    ///   - carriers: The ways they may carry it.
    ///   - name: The front-end's name, which starts the cookie's, e.g. `appstate-gateway`.
    ///   - origins: Other origins whose pages may use the front-end, e.g.
    ///     `https://kiosk.example`; `nil` to check no `Origin` at all.
    ///   - listeners: Where the front-end listens, for its own origins and its cookie's name.
    /// - Throws: ``WebOriginError`` when an origin is not `http(s)://HOST[:PORT]`.
    public init(
        token: AccessToken, carriers: TokenCarriers, name: String, origins: [String]?, listeners: [HTTPListenerAddress]
    ) throws(WebOriginError) {
        let normalized = try origins?.map { origin throws(WebOriginError) in try Self.normalizedOrigin(origin) }
        self.init(token: token, carriers: carriers, name: name, normalizedOrigins: normalized, listeners: listeners)
    }

    /// Creates a policy that checks no `Origin`, for a front-end whose pages only read.
    /// - Parameters:
    ///   - token: The token requests must carry.
    ///   - carriers: The ways they may carry it.
    ///   - name: The front-end's name, which starts the cookie's.
    ///   - listeners: Where the front-end listens, for its cookie's name.
    public init(token: AccessToken, carriers: TokenCarriers, name: String, listeners: [HTTPListenerAddress]) {
        self.init(token: token, carriers: carriers, name: name, normalizedOrigins: nil, listeners: listeners)
    }

    private init(token: AccessToken, carriers: TokenCarriers, name: String, normalizedOrigins: [String]?, listeners: [HTTPListenerAddress]) {
        self.token = token
        self.carriers = carriers
        checksOrigin = normalizedOrigins != nil
        origins = Set(normalizedOrigins ?? [])
        ownOrigins = Set(listeners.flatMap(\.loopbackOrigins))
        let port = listeners.lazy.compactMap { listener -> Int? in
            if case .tcp(_, let port) = listener { return port } else { return nil }
        }.first
        cookieName = name + (port.map { "-\($0)" } ?? "")
    }

    /// Checks the request's `Origin`.
    /// - Parameter request: The request.
    /// - Returns: The listed origin that needs CORS headers, or `nil` for none (no `Origin`, the
    ///   front-end's own, or a policy that checks none).
    /// - Throws: ``WebAccessRefusal/originNotAllowed(_:)`` for any other origin, `null` included.
    public func checkOrigin(of request: HTTPRequest) throws(WebAccessRefusal) -> String? {
        guard checksOrigin, let origin = request.header("Origin") else { return nil }
        let normalized = origin.lowercased()
        if ownOrigins.contains(normalized) { return nil }
        if origins.contains(normalized) { return normalized }
        throw .originNotAllowed(origin)
    }

    /// Checks the request's token.
    /// - Parameter request: The request.
    /// - Returns: Whether the answer should set the cookie: the policy keeps one and the token
    ///   came as a header or in the query, not yet as the cookie.
    /// - Throws: ``WebAccessRefusal/unauthorized`` when no way the request carries matches.
    public func checkToken(of request: HTTPRequest) throws(WebAccessRefusal) -> Bool {
        let cookie = carriers.contains(.cookie) && request.cookies(named: cookieName).contains { token.matches($0) }
        let setsCookie = carriers.contains(.cookie) && !cookie
        if carriers.contains(.bearer), let authorization = request.header("Authorization"),
            authorization.lowercased().hasPrefix("bearer "),
            token.matches(Substring(authorization.dropFirst("bearer ".count)).drop { $0 == " " })
        {
            return setsCookie
        }
        if carriers.contains(.query), let presented = request.queryValue("token"), token.matches(Substring(presented)) {
            return setsCookie
        }
        guard cookie else { throw .unauthorized }
        return false
    }

    /// What a request that passed may be answered with beyond its route.
    public struct Grant: Hashable, Sendable {
        /// The request's origin, when it is one of ``WebAccessPolicy/origins``.
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

    /// The header fields a grant adds to its answer: the cookie and the CORS headers.
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

    /// The header fields every answer of a front-end carries: nothing cached, nothing sent to
    /// other sites, no framing, no sniffing, and the front-end's content security policy.
    /// - Parameter contentSecurityPolicy: What its pages may load and connect to.
    public static func securityHeaders(contentSecurityPolicy: String) -> [(name: String, value: String)] {
        [
            ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy", contentSecurityPolicy),
        ]
    }

    /// An origin as browsers send it: scheme and host in lowercase, no path, no trailing slash.
    /// - Parameter origin: An origin as `--origin` takes it, e.g. `https://kiosk.example`.
    /// - Returns: The origin as a browser's `Origin` header would carry it.
    /// - Throws: ``WebOriginError`` when it is not `http(s)://HOST[:PORT]`.
    public static func normalizedOrigin(_ origin: String) throws(WebOriginError) -> String {
        var text = origin.lowercased()
        if text.hasSuffix("/") { text.removeLast() }
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            if !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains("@") { return text }
        }
        throw WebOriginError(origin)
    }
}
