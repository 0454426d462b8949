import AppStateCore
import AppStateIPC

/// An answer other than success, as the gateway sends it: an HTTP status and, in the body,
/// `{"error": NAME, "parameters": {…}}` as a Varlink error reads, so that a page handles the
/// gateway's refusals and the daemon's errors alike.
public struct GatewayRefusal: Error, Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The error's name: the daemon's, or one of `io.appstate.gateway`'s.
    public var name: String
    /// The error's parameters.
    public var parameters: [String: JSONValue]
    /// Header fields the answer needs, such as `Retry-After`.
    public var headers: [(name: String, value: String)]

    /// Creates a refusal.
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - name: The error's name.
    ///   - parameters: The error's parameters.
    ///   - headers: Header fields the answer needs.
    public init(status: Int, name: String, parameters: [String: JSONValue] = [:], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.name = name
        self.parameters = parameters
        self.headers = headers
    }

    /// The interface the gateway's own error names belong to.
    public static let interface = "io.appstate.gateway"

    /// The body: `{"error": NAME, "parameters": {…}}`.
    public var json: String {
        JSONValue.object(["error": .string(name), "parameters": .object(parameters)]).jsonText
    }

    /// No token, or not the gateway's: 401, with the scheme to use.
    public static var unauthorized: GatewayRefusal {
        GatewayRefusal(
            status: 401, name: "\(interface).Unauthorized",
            parameters: ["reason": "send the gateway's token as Authorization: Bearer TOKEN, ?token=TOKEN or its cookie"],
            headers: [("WWW-Authenticate", #"Bearer realm="appstate-gateway""#)])
    }

    /// A request from a page of another origin than the gateway's own and those `--origin` lists.
    /// - Parameter origin: The request's `Origin`.
    public static func originNotAllowed(_ origin: String) -> GatewayRefusal {
        GatewayRefusal(status: 403, name: "\(interface).OriginNotAllowed", parameters: ["origin": .string(origin)])
    }

    /// A call of a method that `--allow` does not list.
    /// - Parameter method: The method's full name.
    public static func methodNotAllowed(_ method: String) -> GatewayRefusal {
        GatewayRefusal(status: 403, name: "\(interface).MethodNotAllowed", parameters: ["method": .string(method)])
    }

    /// A `ReportFrontEnd` through the gateway of something else than a page.
    /// - Parameter reason: What was wrong, in words.
    public static func notAPage(_ reason: String) -> GatewayRefusal {
        GatewayRefusal(status: 403, name: "\(interface).NotAPage", parameters: ["reason": .string(reason)])
    }

    /// Nothing is served at this path.
    /// - Parameter path: The request's path.
    public static func notFound(_ path: String) -> GatewayRefusal {
        GatewayRefusal(status: 404, name: "\(interface).NotFound", parameters: ["path": .string(path)])
    }

    /// The path is served, but not with this HTTP method.
    /// - Parameter allowed: The methods it is served with, e.g. `POST`.
    public static func wrongHTTPMethod(allowed: String) -> GatewayRefusal {
        GatewayRefusal(
            status: 405, name: "\(interface).HTTPMethodNotAllowed", parameters: ["allowed": .string(allowed)],
            headers: [("Allow", allowed)])
    }

    /// A call whose body is not a JSON object of parameters.
    /// - Parameter reason: What is wrong with it, in words.
    public static func invalidBody(_ reason: String) -> GatewayRefusal {
        GatewayRefusal(status: 400, name: "\(interface).InvalidBody", parameters: ["reason": .string(reason)])
    }

    /// The daemon cannot be reached, or dropped the connection: try again shortly.
    /// - Parameter reason: Why, in words.
    public static func daemonUnavailable(_ reason: String) -> GatewayRefusal {
        GatewayRefusal(
            status: 503, name: "\(interface).DaemonUnavailable", parameters: ["reason": .string(reason)],
            headers: [("Retry-After", "1")])
    }

    /// The daemon did not answer in time.
    /// - Parameter reason: The client's account of it.
    public static func daemonTimedOut(_ reason: String) -> GatewayRefusal {
        GatewayRefusal(status: 504, name: "\(interface).DaemonTimedOut", parameters: ["reason": .string(reason)])
    }

    /// The gateway follows as many different subtrees as it may.
    /// - Parameter limit: How many.
    public static func tooManyWatches(limit: Int) -> GatewayRefusal {
        GatewayRefusal(
            status: 503, name: "\(interface).TooManyWatches", parameters: ["limit": .number(Double(limit))],
            headers: [("Retry-After", "1")])
    }

    /// An error the daemon answered, with the HTTP status of its ``ErrorCatalogue`` entry; an
    /// error no catalogued interface declares is 400: the call was refused.
    /// - Parameters:
    ///   - name: The error's name.
    ///   - parameters: Its parameters.
    public static func daemon(_ name: String, parameters: [String: JSONValue]) -> GatewayRefusal {
        let status = ErrorCatalogue.entry(for: name)?.httpStatus ?? 400
        return GatewayRefusal(status: status, name: name, parameters: parameters, headers: status == 503 ? [("Retry-After", "1")] : [])
    }
}
