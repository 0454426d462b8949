import AppStateHTTP

/// What the gateway serves at a path, decided from the request's method and target once its
/// access policy (``GatewayServer/policy``) let it on:
///
/// | Request | Route |
/// | --- | --- |
/// | `POST /call/io.appstate.METHOD` | ``call(method:)``, if `--allow` lists the method, else 403 |
/// | `GET /watch[?path=…][&tree=…]` | ``watch(_:)``: the `Watch` stream as Server-Sent Events |
/// | `POST /clear-site-data` | ``clearSiteData``: the end of a customer's session |
/// | `GET /appstate.js` | ``module``: the JavaScript module |
/// | `GET /`, `GET /FILE` | ``page(_:)``: the kiosk page, or a file of `--pages` |
///
/// A CORS preflight (`OPTIONS`, which carries no token) is answered by the policy's
/// `OriginMiddleware` before any route.
public enum GatewayRoute: Hashable, Sendable {
    /// A file of the pages, by its path below them, e.g. `index.html`.
    case page(String)
    /// `appstate.js`.
    case module
    /// A call of the daemon's method, by its full name.
    case call(method: String)
    /// The event stream.
    case watch(WatchRequest)
    /// The end of a customer's session: the answer clears what the gateway's origin keeps in
    /// the browser (``SiteDataClearing``).
    case clearSiteData

    /// Decides the route.
    /// - Parameters:
    ///   - request: The request.
    ///   - allowList: The methods pages may call.
    /// - Returns: The route.
    /// - Throws: ``GatewayRefusal`` when nothing is served there (404), not with this method
    ///   (405), or the method is not allowed (403).
    public static func decide(_ request: HTTPRequest, allowList: MethodAllowList) throws(GatewayRefusal) -> GatewayRoute {
        let path = String(request.path)
        if path.hasPrefix("/call/") {
            let method = String(path.dropFirst("/call/".count))
            guard request.method == "POST" else { throw .wrongHTTPMethod(allowed: "POST") }
            guard !method.isEmpty, !method.contains("/") else { throw .notFound(path) }
            guard allowList.allows(method) else { throw .methodNotAllowed(method) }
            return .call(method: method)
        }
        if path == "/call" { throw .notFound(path) }
        if path == "/clear-site-data" {
            guard request.method == "POST" else { throw .wrongHTTPMethod(allowed: "POST") }
            return .clearSiteData
        }
        guard request.method == "GET" else { throw .wrongHTTPMethod(allowed: "GET") }
        switch path {
        case "/appstate.js":
            return .module
        case "/watch":
            return .watch(
                WatchRequest(
                    tree: request.queryValue("tree"), path: request.queryValue("path"),
                    lastEventID: request.header("Last-Event-ID") ?? request.queryValue("lastEventId")))
        default:
            guard let file = pagePath(path) else { throw .notFound(path) }
            return .page(file)
        }
    }

    /// The path below the pages that a request path names: percent-decoded, a directory's
    /// `index.html`, and nothing that could leave the pages' directory or name a hidden file.
    private static func pagePath(_ path: String) -> String? {
        guard path.hasPrefix("/"), let decoded = HTTPRequest.percentDecoded(path.dropFirst(), plusAsSpace: false) else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment.isEmpty && !isLast { return nil }
            if segment.hasPrefix(".") || segment.contains("\\") || segment.contains("\0") { return nil }
        }
        return decoded.isEmpty || decoded.hasSuffix("/") ? decoded + "index.html" : decoded
    }
}
