import AppStateHTTP
import AppStateInspectKit
import NIOHTTP1
import TestSupport
import XCTest

final class InspectorRouteTests: AppStateTestCase {
    func testDecide_whenAReadOfAKnownPath_thenServesThePageTheStreamAnEntryOrTheScreenshot() {
        XCTAssertEqual(InspectorRoute.decide(method: "GET", path: "/"), .page)
        XCTAssertEqual(InspectorRoute.decide(method: "GET", path: "/events"), .events)
        XCTAssertEqual(InspectorRoute.decide(method: "GET", path: "/entries/42"), .entry(sequence: 42))
        XCTAssertEqual(InspectorRoute.decide(method: "GET", path: "/screenshot"), .screenshot)
    }

    func testDecide_whenTheRequestIsNotAReadOfAKnownPath_thenRefuses405Or404() {
        for method in ["POST", "PUT", "DELETE", "PATCH", "HEAD"] {
            for path in ["/", "/screenshot"] {
                guard case .refused(405, _) = InspectorRoute.decide(method: method, path: Substring(path)) else {
                    return XCTFail("\(method) \(path) was not refused with 405")
                }
            }
        }
        for path in ["/state", "/entries/", "/entries/0", "/entries/-1", "/entries/x", "/entries/1/2"] {
            guard case .refused(404, _) = InspectorRoute.decide(method: "GET", path: Substring(path)) else {
                return XCTFail("\(path) was not refused with 404")
            }
        }
    }

    func testPolicy_whenTheTokenComesOtherwiseThanInTheQuery_thenRefusesItAndChecksNoOrigin() {
        let policy = InspectorRoute.policy(token: AccessToken(bytes: [0x12, 0x34, 0x56, 0x78]))
        XCTAssertFalse(policy.checksOrigin)
        XCTAssertEqual(try policy.checkToken(of: HTTPRequest(method: "GET", target: "/?token=12345678")), false, "no cookie to set")
        let bearer = HTTPRequest(method: "GET", target: "/", headers: ["Authorization": "Bearer 12345678"])
        let cookie = HTTPRequest(method: "GET", target: "/", headers: ["Cookie": "appstate-inspect=12345678"])
        for request in [bearer, cookie] {
            XCTAssertThrowsError(try policy.checkToken(of: request)) { XCTAssertEqual($0 as? WebAccessRefusal, .unauthorized) }
        }
    }
}
