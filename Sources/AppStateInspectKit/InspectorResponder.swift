import AppStateHTTP

/// Answers the inspector's requests that its access policy let on: the page, the event
/// stream, an entry, the kiosk's screenshot, or a refusal, as ``InspectorRoute`` decides.
struct InspectorResponder: Sendable {
    let hub: InspectorHub
    let screenshots: InspectorScreenshots

    func respond(to request: HTTPRequest, with exchange: HTTPExchange) {
        answer(InspectorRoute.decide(method: request.method, path: request.path), with: exchange)
    }

    func answer(_ route: InspectorRoute, with exchange: HTTPExchange) {
        switch route {
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

    /// The answer to a request the policy refused: 403, whatever was refused.
    /// - Parameter refusal: Why the policy refused it.
    static func refusal(_ refusal: WebAccessRefusal) -> HTTPResponse {
        .text(status: 403, "This inspector needs the token in the URL appstate-inspect printed.")
    }
}
