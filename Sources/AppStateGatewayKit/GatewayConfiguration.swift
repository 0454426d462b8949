import AppStateHTTP

/// What a gateway serves, where, to whom, and on behalf of which daemon.
public struct GatewayConfiguration: Sendable {
    /// The daemon's socket.
    public var socketPath: String
    /// Where to listen.
    public var endpoints: [HTTPEndpoint]
    /// The token every request must carry.
    public var token: AccessToken
    /// The methods pages may call.
    public var allowList: MethodAllowList
    /// Other origins whose pages may use the gateway (`--origin`).
    public var origins: [String]
    /// What is served at `/`.
    public var pages: GatewayPages
    /// The bounds on requests, connections and streams.
    public var limits: HTTPServerLimits
    /// How often idle streams get a comment, so that proxies keep them open and the gateway
    /// learns of pages that have gone.
    public var keepAliveInterval: Duration

    /// The gateway's limits when not told otherwise: small request bodies (calls take a few
    /// parameters) and a megabyte of unread events per page.
    public static let defaultLimits = HTTPServerLimits(maximumBodySize: 64 << 10, maximumConnections: 512, streamBufferLimit: 1 << 20)

    /// Creates a configuration.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - endpoints: Where to listen.
    ///   - token: The token requests must carry.
    ///   - allowList: The methods pages may call.
    ///   - origins: Other origins whose pages may use the gateway.
    ///   - pages: What is served at `/`.
    ///   - limits: The bounds on requests, connections and streams.
    ///   - keepAliveInterval: How often idle streams get a comment.
    public init(
        socketPath: String, endpoints: [HTTPEndpoint], token: AccessToken, allowList: MethodAllowList, origins: [String] = [],
        pages: GatewayPages = .embedded, limits: HTTPServerLimits = GatewayConfiguration.defaultLimits,
        keepAliveInterval: Duration = .seconds(15)
    ) {
        self.socketPath = socketPath
        self.endpoints = endpoints
        self.token = token
        self.allowList = allowList
        self.origins = origins
        self.pages = pages
        self.limits = limits
        self.keepAliveInterval = keepAliveInterval
    }
}
