/// The token check of a ``WebAccessPolicy`` as a step of a chain: refuses a request without
/// the token, and sets the session cookie when the policy keeps one and the token came
/// another way.
public struct TokenMiddleware: HTTPMiddleware {
    /// The policy whose token is required.
    public let policy: WebAccessPolicy

    /// Creates the step.
    /// - Parameter policy: The policy whose token is required.
    public init(policy: WebAccessPolicy) {
        self.policy = policy
    }

    public func intercept(_ request: HTTPRequest, headers: inout [(name: String, value: String)]) throws(WebAccessRefusal) -> HTTPResponse? {
        if try policy.checkToken(of: request) {
            headers += policy.headers(for: WebAccessPolicy.Grant(crossOrigin: nil, setsCookie: true))
        }
        return nil
    }
}
