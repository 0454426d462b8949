/// One whole answer: a status, the header fields of its own, and a body. The server adds its
/// default fields, `Content-Length`, and `Connection: close` when the request asked for it.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body's bytes.
    public var body: [UInt8]

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text answer.
    /// - Parameters:
    ///   - status: The status code.
    ///   - text: The body; a line break is added.
    ///   - headers: More header fields.
    public static func text(status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((text + "\n").utf8))
    }

    /// A JSON answer.
    /// - Parameters:
    ///   - status: The status code.
    ///   - json: The body, JSON text.
    ///   - headers: More header fields.
    public static func json(status: Int, _ json: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }
}
