import AppStateHTTP
import AppStateInspectKit
import TestSupport
import XCTest

final class InspectorRouteTests: AppStateTestCase {
    private let token = AccessToken(bytes: [0x12, 0x34, 0x56, 0x78])

    func testDecide_whenTheTokenIsRight_thenServesThePageAndTheStream() {
        XCTAssertEqual(InspectorRoute.decide(method: "GET", target: "/?token=12345678", token: token), .page)
        XCTAssertEqual(InspectorRoute.decide(method: "GET", target: "/events?token=12345678", token: token), .events)
        XCTAssertEqual(InspectorRoute.decide(method: "GET", target: "/events?x=1&token=12345678&y", token: token), .events)
        XCTAssertEqual(InspectorRoute.decide(method: "GET", target: "/entries/42?token=12345678", token: token), .entry(sequence: 42))
        XCTAssertEqual(InspectorRoute.decide(method: "GET", target: "/screenshot?token=12345678", token: token), .screenshot)
    }

    func testDecide_whenTheTokenIsMissingOrWrong_thenRefuses403WhateverWasAsked() {
        for target in [
            "/", "/events", "/entries/1", "/screenshot", "/screenshot?token=1234567", "/nothing", "/?token=", "/?token=1234567", "/?token=123456789",
            "/?Token=12345678",
            "/?tok=12345678", "/events?token=12345679", "/token=12345678", "/?x=token=12345678",
        ] {
            for method in ["GET", "POST", "DELETE"] {
                guard case .refused(403, _) = InspectorRoute.decide(method: method, target: target, token: token) else {
                    return XCTFail("\(method) \(target) was not refused with 403")
                }
            }
        }
    }

    func testDecide_whenTheTokenIsRightButTheRequestIsNotAReadOfAKnownPath_thenRefuses405Or404() {
        for method in ["POST", "PUT", "DELETE", "PATCH", "HEAD"] {
            for path in ["/", "/screenshot"] {
                guard case .refused(405, _) = InspectorRoute.decide(method: method, target: path + "?token=12345678", token: token) else {
                    return XCTFail("\(method) \(path) was not refused with 405")
                }
            }
        }
        for path in ["/state", "/entries/", "/entries/0", "/entries/-1", "/entries/x", "/entries/1/2"] {
            guard case .refused(404, _) = InspectorRoute.decide(method: "GET", target: path + "?token=12345678", token: token) else {
                return XCTFail("\(path) was not refused with 404")
            }
        }
    }
}
