/// The `Origin` check of a ``WebAccessPolicy`` as a step of a chain: refuses other sites'
/// pages, gives a listed origin its CORS headers, and answers a CORS preflight (`OPTIONS`,
/// which carries no token) before the token is checked.
public struct OriginMiddleware: HTTPMiddleware {
    /// The policy whose origins are allowed.
    public let policy: WebAccessPolicy
    /// The methods the server serves besides `OPTIONS`, e.g. `GET` and `POST`.
    public let methods: [String]
    /// The request header fields a listed origin's pages may send.
    public let requestHeaders: [String]

    /// Creates the step.
    /// - Parameters:
    ///   - policy: The policy whose origins are allowed.
    ///   - methods: The methods the server serves besides `OPTIONS`.
    ///   - requestHeaders: The request header fields a listed origin's pages may send.
    public init(policy: WebAccessPolicy, methods: [String], requestHeaders: [String]) {
        self.policy = policy
        self.methods = methods
        self.requestHeaders = requestHeaders
    }

    public func intercept(_ request: HTTPRequest, headers: inout [(name: String, value: String)]) throws(WebAccessRefusal) -> HTTPResponse? {
        let crossOrigin = try policy.checkOrigin(of: request)
        headers += policy.headers(for: WebAccessPolicy.Grant(crossOrigin: crossOrigin, setsCookie: false))
        guard request.method == "OPTIONS" else { return nil }
        // The front-end's own pages need no preflight: they are told the methods served.
        guard crossOrigin != nil else { return HTTPResponse(status: 204, headers: [("Allow", (methods + ["OPTIONS"]).joined(separator: ", "))]) }
        return HTTPResponse(
            status: 204,
            headers: [
                ("Access-Control-Allow-Methods", methods.joined(separator: ", ")),
                ("Access-Control-Allow-Headers", requestHeaders.joined(separator: ", ")),
                ("Access-Control-Max-Age", "600"),
            ])
    }
}
