import AppStateHTTP

/// The answer that ends a customer's session in the browser, for the gateway's own origin:
/// appstate.js asks for it when the tree's login container goes back to its logged-out child,
/// so that the next customer finds nothing of the last one.
///
/// `Clear-Site-Data: "cache", "storage"` has the browser drop the origin's cache, local
/// storage, IndexedDB, service workers and cache storage. Cookies are expired one by one
/// rather than with the header's `"cookies"`, which would take the gateway's own cookie too
/// and so the page's access to the daemon: every cookie the request carries but that one gets
/// a `Set-Cookie` that expires it at the root path, where pages set them.
public enum SiteDataClearing {
    /// The answer: 204, with `Clear-Site-Data` and an expiring `Set-Cookie` for each cookie.
    /// - Parameters:
    ///   - request: The request, whose cookies are expired.
    ///   - cookieName: The gateway's own cookie, which stays.
    /// - Returns: The response.
    public static func response(for request: HTTPRequest, keeping cookieName: String) -> HTTPResponse {
        let expired = request.cookieNames.filter { $0 != cookieName }.map {
            (name: "Set-Cookie", value: "\($0)=; Max-Age=0; Path=/")
        }
        return HTTPResponse(status: 204, headers: [("Clear-Site-Data", "\"cache\", \"storage\""), ("Cache-Control", "no-store")] + expired)
    }
}
