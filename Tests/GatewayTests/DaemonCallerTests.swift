import AppStateCore
import TestSupport
import XCTest

@testable import AppStateGatewayKit

final class DaemonCallerTests: AppStateTestCase {
    func testParameters_whenTheBodyIsAnObjectOrEmpty_thenTheyAreItsMembers() throws {
        XCTAssertEqual(try DaemonCaller.parameters(Array(#"{"height": 320, "tree": "t"}"#.utf8)), ["height": 320, "tree": "t"])
        XCTAssertEqual(try DaemonCaller.parameters([]), [:])
        XCTAssertEqual(try DaemonCaller.parameters(Array(" \r\n\t".utf8)), [:])
    }

    func testParameters_whenTheBodyIsNotAJSONObject_thenRefuses400() {
        for body in ["{", "[]", "320", "\"x\"", "null", "{\"a\":1} x", "{\"a\":1,}", "\u{FEFF}{}", "{'a':1}"] {
            XCTAssertThrowsError(try DaemonCaller.parameters(Array(body.utf8)), body) { error in
                XCTAssertEqual((error as? GatewayRefusal)?.status, 400)
                XCTAssertEqual((error as? GatewayRefusal)?.name, "io.appstate.gateway.InvalidBody")
            }
        }
    }

    func testCall_whenTheDaemonIsNotThere_thenAnswers503WithRetryAfter() throws {
        let directory = try TemporaryDirectory()
        let response = DaemonCaller(socketPath: directory.path + "/absent").call("io.appstate.GetTree", body: [])
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.headers.first { $0.name == "Retry-After" }?.value, "1")
        let body = try JSONValue(jsonBytes: response.body)
        XCTAssertEqual(body["error"], "io.appstate.gateway.DaemonUnavailable")
        guard case .string(let reason)? = body["parameters"]?["reason"] else { return XCTFail("no reason: \(body)") }
        XCTAssertTrue(reason.contains("no such socket"), reason)
    }
}
