import AppStateGatewayKit
import AppStateHTTP
import NIOHTTP1
import TestSupport
import XCTest

final class GatewayAccessTests: AppStateTestCase {
    private let token = AccessToken(bytes: Array(repeating: 0xab, count: 16))
    private var text: String { token.text }

    private func access(origins: [String] = []) throws -> GatewayAccess {
        try GatewayAccess(token: token, origins: origins, listeners: [.tcp(host: "127.0.0.1", port: 8470)])
    }

    private func request(_ target: String = "/", _ headers: [(String, String)] = []) -> HTTPRequest {
        HTTPRequest(method: "GET", target: target, headers: HTTPHeaders(headers))
    }

    func testCheckToken_whenBearerQueryOrCookie_thenPassesAndSetsTheCookieOnlyWhenNotYetSent() throws {
        let access = try access()
        XCTAssertEqual(access.cookieName, "appstate-gateway-8470")
        XCTAssertTrue(try access.checkToken(of: request("/", [("Authorization", "Bearer \(text)")])))
        XCTAssertTrue(try access.checkToken(of: request("/", [("authorization", "bearer  \(text)")])))
        XCTAssertTrue(try access.checkToken(of: request("/?token=\(text)")))
        XCTAssertFalse(try access.checkToken(of: request("/", [("Cookie", "other=1; appstate-gateway-8470=\(text)")])))
        XCTAssertFalse(try access.checkToken(of: request("/?token=\(text)", [("Cookie", "appstate-gateway-8470=\(text)")])))
    }

    func testCheckToken_whenMissingOrWrong_thenRefuses401WithTheScheme() throws {
        let access = try access()
        for request in [
            request(), request("/?token=\(text.dropLast())"), request("/?token=\(text)0"),
            request("/", [("Authorization", "Basic \(text)")]), request("/", [("Authorization", "Bearer")]),
            request("/", [("Cookie", "appstate-gateway-8471=\(text)")]), request("/", [("Cookie", "appstate-gateway-8470=x")]),
            request("/?Token=\(text)"),
        ] {
            XCTAssertThrowsError(try access.checkToken(of: request), request.target) { error in
                let refusal = error as? GatewayRefusal
                XCTAssertEqual(refusal?.status, 401)
                XCTAssertEqual(refusal?.name, "io.appstate.gateway.Unauthorized")
                XCTAssertEqual(refusal?.headers.first?.value, #"Bearer realm="appstate-gateway""#)
            }
        }
    }

    func testCheckOrigin_whenNoneOwnListedOrOther_thenOnlyOtherIsRefused403() throws {
        let access = try access(origins: ["HTTPS://Kiosk.Example/"])
        XCTAssertNil(try access.checkOrigin(of: request()))
        XCTAssertNil(try access.checkOrigin(of: request("/", [("Origin", "http://127.0.0.1:8470")])))
        XCTAssertNil(try access.checkOrigin(of: request("/", [("Origin", "http://localhost:8470")])))
        XCTAssertEqual(try access.checkOrigin(of: request("/", [("Origin", "https://kiosk.example")])), "https://kiosk.example")
        for origin in ["null", "http://127.0.0.1:8471", "https://127.0.0.1:8470", "http://evil.example", "https://kiosk.example.evil", ""] {
            XCTAssertThrowsError(try access.checkOrigin(of: request("/", [("Origin", origin)])), origin) { error in
                XCTAssertEqual((error as? GatewayRefusal)?.status, 403)
                XCTAssertEqual((error as? GatewayRefusal)?.name, "io.appstate.gateway.OriginNotAllowed")
            }
        }
    }

    func testHeaders_whenTheGrantSetsTheCookieOrIsCrossOrigin_thenCarryTheCookieAndCORS() throws {
        let access = try access(origins: ["https://kiosk.example"])
        XCTAssertTrue(access.headers(for: .init(crossOrigin: nil, setsCookie: false)).isEmpty)
        let cookie = access.headers(for: .init(crossOrigin: nil, setsCookie: true))
        XCTAssertEqual(cookie.map(\.name), ["Set-Cookie"])
        XCTAssertEqual(cookie.first?.value, "appstate-gateway-8470=\(text); Path=/; HttpOnly; SameSite=Strict")
        let cors = Dictionary(
            uniqueKeysWithValues: access.headers(for: .init(crossOrigin: "https://kiosk.example", setsCookie: false)).map { ($0.name, $0.value) })
        XCTAssertEqual(cors, ["Access-Control-Allow-Origin": "https://kiosk.example", "Access-Control-Allow-Credentials": "true", "Vary": "Origin"])
    }

    func testInit_whenAnOriginIsNotSchemeAndHost_thenThrowsASentence() {
        for origin in ["kiosk.example", "ftp://kiosk.example", "https://", "https://kiosk.example/path", "https://user@kiosk.example"] {
            XCTAssertThrowsError(try access(origins: [origin]), origin) { error in
                XCTAssertTrue("\(error)".hasPrefix("--origin takes an origin"), "\(error)")
            }
        }
    }

    func testInit_whenListeningOnAUnixSocket_thenHasNoOwnOriginAndAPlainCookieName() throws {
        let access = try GatewayAccess(token: token, origins: [], listeners: [.unixSocket(path: "/run/x.sock")])
        XCTAssertEqual(access.ownOrigins, [])
        XCTAssertEqual(access.cookieName, "appstate-gateway")
    }
}
