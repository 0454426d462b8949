import AppStateCore
import AppStateHTTP
import AppStateIPC

/// Calls the daemon for `POST /call/…`: one connection per call, so that a daemon that
/// restarted between two calls is simply connected to again, and nothing of one page's call
/// can be read as another's.
struct DaemonCaller: Sendable {
    /// How long a call may wait for the daemon before it is answered 504.
    static let timeout = Duration.seconds(10)

    let socketPath: String

    /// Calls a method with the body's parameters.
    /// - Parameters:
    ///   - method: The method's full name.
    ///   - body: The request's body: a JSON object, or nothing for no parameters.
    /// - Returns: 200 with the reply's parameters as a JSON object, or the refusal.
    func call(_ method: String, body: [UInt8]) -> HTTPResponse {
        do throws(GatewayRefusal) {
            let parameters = try Self.parameters(body)
            if method == ReportFrontEnd.name { try Self.checkPageReport(parameters) }
            do {
                let client = try VarlinkClient(path: socketPath, timeout: Self.timeout)
                defer { client.close() }
                let reply = try client.call(method: method, parameters: parameters)
                return .json(status: 200, JSONValue.object(reply).jsonText)
            } catch let error as VarlinkError {
                throw .daemon(error.name, parameters: error.parameters)
            } catch let error as VarlinkClientError where error.kind == .timedOut {
                throw .daemonTimedOut(error.description)
            } catch {
                throw .daemonUnavailable("\(error)")
            }
        } catch {
            return .json(status: error.status, error.json, headers: error.headers)
        }
    }

    /// Refuses a `ReportFrontEnd` of anything but a page: a page could otherwise report itself
    /// as a kiosk with a socket of its choosing, which `GetKiosk` would hand to whoever asks
    /// for the kiosk.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: ``GatewayRefusal/notAPage(_:)`` unless the kind is `page` and no socket is given.
    static func checkPageReport(_ parameters: [String: JSONValue]) throws(GatewayRefusal) {
        guard parameters["kind"] == "page" else { throw .notAPage("a page reports with kind \"page\"") }
        guard parameters["socket"] == nil || parameters["socket"] == .null else { throw .notAPage("a page has no socket to report") }
    }

    /// The parameters a body carries: a JSON object; an empty body is no parameters.
    static func parameters(_ body: [UInt8]) throws(GatewayRefusal) -> [String: JSONValue] {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return [:] }
        let value: JSONValue
        do {
            value = try JSONValue(jsonBytes: body)
        } catch {
            throw .invalidBody("the body is not JSON: \(error)")
        }
        guard case .object(let parameters) = value else { throw .invalidBody("the body must be a JSON object of parameters") }
        return parameters
    }
}
