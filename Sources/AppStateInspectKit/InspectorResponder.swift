import AppStateHTTP

/// Answers the inspector's requests: the page, the event stream, an entry, the kiosk's
/// screenshot, or a refusal, as ``InspectorRoute`` decides.
struct InspectorResponder: HTTPResponder {
    /// What every answer carries: nothing cached (the page holds the token), nothing sent
    /// to other sites, no framing by other pages, and a page that may load nothing from
    /// anywhere else (everything it needs is inline).
    static let headers = [
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data: blob:; frame-ancestors 'none'"
        ),
    ]

    let token: AccessToken
    let hub: InspectorHub
    let screenshots: InspectorScreenshots

    func respond(to request: HTTPRequest, with exchange: HTTPExchange) {
        switch InspectorRoute.decide(method: request.method, target: request.target, token: token) {
        case .page:
            exchange.respond(HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: InspectorPage.bytes))
        case .events:
            // A viewer that falls too far behind is dropped by the stream; its browser
            // reconnects by itself and starts again from the current entry.
            let stream = exchange.openEventStream()
            let viewer = hub.subscribe { message in stream.send(message) }
            stream.onClose { hub.unsubscribe(viewer) }
        case .entry(let sequence):
            if let text = hub.entry(sequence: sequence) {
                exchange.respond(.json(status: 200, text))
            } else {
                exchange.respond(.text(status: 404, "The inspector no longer holds entry \(sequence)."))
            }
        case .screenshot:
            screenshots.take { exchange.respond($0) }
        case .refused(let status, let reason):
            exchange.respond(.text(status: status, reason))
        }
    }
}
