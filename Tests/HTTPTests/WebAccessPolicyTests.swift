import AppStateHTTP
import NIOHTTP1
import TestSupport
import XCTest

/// The web front-ends' one access policy, as the gateway configures it (every way of carrying
/// the token, the cookie, the `Origin`) and as its middleware applies it.
final class WebAccessPolicyTests: AppStateTestCase {
    private let token = AccessToken(bytes: Array(repeating: 0xab, count: 16))
    private var text: String { token.text }

    private func access(origins: [String] = []) throws -> WebAccessPolicy {
        try WebAccessPolicy(
            token: token, carriers: [.query, .bearer, .cookie], name: "appstate-gateway", origins: origins,
            listeners: [.tcp(host: "127.0.0.1", port: 8470)])
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

    func testCheckToken_whenMissingOrWrong_thenRefusesAsUnauthorized() throws {
        let access = try access()
        for request in [
            request(), request("/?token=\(text.dropLast())"), request("/?token=\(text)0"),
            request("/", [("Authorization", "Basic \(text)")]), request("/", [("Authorization", "Bearer")]),
            request("/", [("Cookie", "appstate-gateway-8471=\(text)")]), request("/", [("Cookie", "appstate-gateway-8470=x")]),
            request("/?Token=\(text)"),
        ] {
            XCTAssertThrowsError(try access.checkToken(of: request), request.target) { error in
                XCTAssertEqual(error as? WebAccessRefusal, .unauthorized)
            }
        }
    }

    func testCheckOrigin_whenNoneOwnListedOrOther_thenOnlyOtherIsRefused() throws {
        let access = try access(origins: ["HTTPS://Kiosk.Example/"])
        XCTAssertNil(try access.checkOrigin(of: request()))
        XCTAssertNil(try access.checkOrigin(of: request("/", [("Origin", "http://127.0.0.1:8470")])))
        XCTAssertNil(try access.checkOrigin(of: request("/", [("Origin", "http://localhost:8470")])))
        XCTAssertEqual(try access.checkOrigin(of: request("/", [("Origin", "https://kiosk.example")])), "https://kiosk.example")
        for origin in ["null", "http://127.0.0.1:8471", "https://127.0.0.1:8470", "http://evil.example", "https://kiosk.example.evil", ""] {
            XCTAssertThrowsError(try access.checkOrigin(of: request("/", [("Origin", origin)])), origin) { error in
                XCTAssertEqual(error as? WebAccessRefusal, .originNotAllowed(origin))
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
        let access = try WebAccessPolicy(
            token: token, carriers: [.query, .bearer, .cookie], name: "appstate-gateway", origins: [], listeners: [.unixSocket(path: "/run/x.sock")])
        XCTAssertEqual(access.ownOrigins, [])
        XCTAssertEqual(access.cookieName, "appstate-gateway")
    }

    func testOriginMiddleware_whenAPreflightComes_thenAnswersItBeforeTheTokenWithCORSOnlyForAListedOrigin() throws {
        let middleware = OriginMiddleware(
            policy: try access(origins: ["https://kiosk.example"]), methods: ["GET", "POST"], requestHeaders: ["Authorization"])
        var headers: [(name: String, value: String)] = []
        let own = try XCTUnwrap(try middleware.intercept(HTTPRequest(method: "OPTIONS", target: "/call/x"), headers: &headers))
        XCTAssertEqual(own.status, 204)
        XCTAssertEqual(own.headers.map(\.name), ["Allow"])
        XCTAssertEqual(own.headers.first?.value, "GET, POST, OPTIONS")
        XCTAssertTrue(headers.isEmpty)
        let listed = HTTPRequest(method: "OPTIONS", target: "/call/x", headers: HTTPHeaders([("Origin", "https://kiosk.example")]))
        let cross = try XCTUnwrap(try middleware.intercept(listed, headers: &headers))
        XCTAssertEqual(cross.headers.first { $0.name == "Access-Control-Allow-Methods" }?.value, "GET, POST")
        XCTAssertEqual(headers.first { $0.name == "Access-Control-Allow-Origin" }?.value, "https://kiosk.example")
        headers = []
        XCTAssertNil(try middleware.intercept(HTTPRequest(method: "GET", target: "/"), headers: &headers), "not a preflight: passed on")
        XCTAssertThrowsError(
            try middleware.intercept(HTTPRequest(method: "OPTIONS", target: "/", headers: HTTPHeaders([("Origin", "null")])), headers: &headers))
    }

    func testTokenMiddleware_whenTheTokenComesInTheQuery_thenGrantsTheCookieOnce() throws {
        let middleware = TokenMiddleware(policy: try access())
        var headers: [(name: String, value: String)] = []
        XCTAssertNil(try middleware.intercept(request("/?token=\(text)"), headers: &headers))
        XCTAssertEqual(headers.map(\.name), ["Set-Cookie"])
        headers = []
        XCTAssertNil(try middleware.intercept(request("/", [("Cookie", "appstate-gateway-8470=\(text)")]), headers: &headers))
        XCTAssertTrue(headers.isEmpty)
        XCTAssertThrowsError(try middleware.intercept(request("/"), headers: &headers)) { XCTAssertEqual($0 as? WebAccessRefusal, .unauthorized) }
    }
}
