/// A server's answers: a chain of ``HTTPMiddleware`` steps that each request passes first
/// (the access policy's), then the routes. Whatever a step adds to the answer's header
/// fields, every later answer to the request carries, the routes' and the refusals' alike.
public struct HTTPRouter: HTTPResponder {
    /// The steps, in the order requests pass them.
    public let middleware: [any HTTPMiddleware]
    private let refusal: @Sendable (WebAccessRefusal) -> HTTPResponse
    private let routes: @Sendable (HTTPRequest, HTTPExchange) -> Void

    /// Creates a router.
    /// - Parameters:
    ///   - middleware: The steps, in the order requests pass them.
    ///   - refusal: The answer to a request a step refuses, in the server's shape.
    ///   - routes: Answers a request every step let on, through its exchange, which adds the
    ///     steps' header fields.
    public init(
        middleware: [any HTTPMiddleware], refusal: @escaping @Sendable (WebAccessRefusal) -> HTTPResponse,
        routes: @escaping @Sendable (HTTPRequest, HTTPExchange) -> Void
    ) {
        self.middleware = middleware
        self.refusal = refusal
        self.routes = routes
    }

    /// Creates a router whose chain is an access policy's: the `Origin` (and CORS preflights)
    /// when the policy checks it, then the token.
    /// - Parameters:
    ///   - policy: Who may use the server.
    ///   - methods: The methods the server serves, which a preflight lists.
    ///   - requestHeaders: The request header fields a listed origin's pages may send.
    ///   - refusal: The answer to a refused request, in the server's shape.
    ///   - routes: Answers a request the policy let on.
    public init(
        policy: WebAccessPolicy, methods: [String] = ["GET"], requestHeaders: [String] = [],
        refusal: @escaping @Sendable (WebAccessRefusal) -> HTTPResponse, routes: @escaping @Sendable (HTTPRequest, HTTPExchange) -> Void
    ) {
        let origin: [any HTTPMiddleware] =
            policy.checksOrigin ? [OriginMiddleware(policy: policy, methods: methods, requestHeaders: requestHeaders)] : []
        self.init(middleware: origin + [TokenMiddleware(policy: policy)], refusal: refusal, routes: routes)
    }

    public func respond(to request: HTTPRequest, with exchange: HTTPExchange) {
        var headers: [(name: String, value: String)] = []
        for step in middleware {
            let answer: HTTPResponse?
            do {
                answer = try step.intercept(request, headers: &headers)
            } catch {
                answer = refusal(error)
            }
            if let answer { return exchange.adding(headers).respond(answer) }
        }
        routes(request, exchange.adding(headers))
    }
}
