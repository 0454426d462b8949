import AppStateHTTP

/// What the inspector answers to a request its access policy let on, decided from its method
/// and target alone: the page, the event stream, an entry, the kiosk's screenshot, or a
/// refusal with its status.
///
/// Every request must carry the token as the `token` query parameter (``policy(token:)``);
/// without it (or with another value) the answer is 403 whatever was asked, so that nothing,
/// not even which paths exist, is told to a local user who does not have the URL. Nothing on
/// the page changes the daemon, so only `GET` is served.
public enum InspectorRoute: Hashable, Sendable {
    /// The page: `GET /?token=…`.
    case page
    /// The Server-Sent Events stream: `GET /events?token=…`.
    case events
    /// One entry of the history, whole: `GET /entries/SEQ?token=…`.
    case entry(sequence: Int)
    /// A PNG of what the tree's kiosk shows now: `GET /screenshot?token=…`.
    case screenshot
    /// A refusal: the HTTP status code and a sentence for the body.
    case refused(status: Int, reason: String)

    /// The inspector's part of the web front-ends' access policy: the token in the query
    /// alone (the page reads its own URL), no cookie, and no `Origin` check, since the page
    /// only reads.
    /// - Parameter token: The token every request must carry.
    public static func policy(token: AccessToken) -> WebAccessPolicy {
        WebAccessPolicy(token: token, carriers: .query, name: "appstate-inspect", listeners: [])
    }

    /// What the page may load and connect to: everything it needs is inline.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data: blob:; frame-ancestors 'none'"

    /// Decides what to answer a request that carries the token.
    /// - Parameters:
    ///   - method: The request's method, e.g. `GET`.
    ///   - path: The request target's path, e.g. `/events`.
    /// - Returns: The answer.
    public static func decide(method: String, path: Substring) -> InspectorRoute {
        guard method == "GET" else {
            return .refused(status: 405, reason: "The inspector only reads: use GET.")
        }
        switch path {
        case "/": return .page
        case "/events": return .events
        case "/screenshot": return .screenshot
        case _ where path.hasPrefix("/entries/"):
            if let sequence = Int(path.dropFirst("/entries/".count)), sequence > 0 { return .entry(sequence: sequence) }
            return .refused(status: 404, reason: "There is nothing at \(path).")
        default: return .refused(status: 404, reason: "There is nothing at \(path).")
        }
    }
}
