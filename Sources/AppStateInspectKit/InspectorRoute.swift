import AppStateHTTP

/// What the inspector answers to a request, decided from its method and target alone:
/// the page, the event stream, an entry, the kiosk's screenshot, or a refusal with its status.
///
/// Every request must carry the token as the `token` query parameter; without it (or with
/// another value) the answer is 403 whatever was asked, so that nothing, not even which
/// paths exist, is told to a local user who does not have the URL. Nothing on the page
/// changes the daemon, so only `GET` is served.
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

    /// Decides what to answer.
    /// - Parameters:
    ///   - method: The request's method, e.g. `GET`.
    ///   - target: The request target, e.g. `/events?token=…`.
    ///   - token: The token this inspector requires.
    /// - Returns: The answer.
    public static func decide(method: String, target: String, token: AccessToken) -> InspectorRoute {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first ?? ""
        let query = parts.count > 1 ? parts[1] : ""
        let presented = query.split(separator: "&").first { $0.hasPrefix("token=") }?.dropFirst("token=".count)
        guard let presented, token.matches(presented) else {
            return .refused(status: 403, reason: "This inspector needs the token in the URL appstate-inspect printed.")
        }
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
