/// Why a ``WebAccessPolicy`` turned a request away; each front-end answers it in its own
/// shape (the gateway's JSON errors, the inspector's sentence).
public struct WebAccessRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case unauthorized
        case originNotAllowed(String)
    }

    private let code: Code

    /// The request carried no token, or not the front-end's.
    public static let unauthorized = WebAccessRefusal(code: .unauthorized)

    /// The request came from a page of an origin the policy does not allow.
    /// - Parameter origin: The request's `Origin`, as sent.
    public static func originNotAllowed(_ origin: String) -> WebAccessRefusal {
        WebAccessRefusal(code: .originNotAllowed(origin))
    }

    /// The refused `Origin`; `nil` when the token was what failed.
    public var origin: String? {
        if case .originNotAllowed(let origin) = code { origin } else { nil }
    }

    /// The reason, as one sentence.
    public var description: String {
        switch code {
        case .unauthorized: "the request does not carry the token"
        case .originNotAllowed(let origin): "pages of \(origin) may not use this server"
        }
    }
}
