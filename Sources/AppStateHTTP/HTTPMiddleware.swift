/// One step of an ``HTTPRouter``'s chain, which sees each request before its route: it lets
/// the request on, perhaps with header fields for its answer, answers it itself, or refuses it.
public protocol HTTPMiddleware: Sendable {
    /// Looks at one request.
    /// - Parameters:
    ///   - request: The request.
    ///   - headers: Header fields the request's answer will carry, whoever gives it; a step
    ///     adds to them (a cookie, CORS headers).
    /// - Returns: An answer that ends the chain (such as a CORS preflight's), or `nil` to
    ///   pass the request on.
    /// - Throws: ``WebAccessRefusal`` to turn the request away; the router answers it in its
    ///   server's shape.
    func intercept(_ request: HTTPRequest, headers: inout [(name: String, value: String)]) throws(WebAccessRefusal) -> HTTPResponse?
}
