/// What answers the requests of an ``HTTPServer``: the application above the shared stack.
public protocol HTTPResponder: Sendable {
    /// Answers one request, at once or later, from any thread, through `exchange`: with one
    /// ``HTTPExchange/respond(_:)`` or by opening an event stream. The connection's next
    /// request waits until this one is answered.
    /// - Parameters:
    ///   - request: The request, body included.
    ///   - exchange: Where the answer goes.
    func respond(to request: HTTPRequest, with exchange: HTTPExchange)
}
