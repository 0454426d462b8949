import AppStateHTTP
import AppStateInspectKit
import NIOPosix
import TestSupport
import XCTest

/// The inspector's server in-process over real HTTP: its access policy, its security
/// headers, and its graceful shutdown.
final class InspectorServerTests: AppStateTestCase {
    private let token = AccessToken(bytes: [0x12, 0x34, 0x56, 0x78])
    private var group: MultiThreadedEventLoopGroup!
    private var server: InspectorServer!
    private var port = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        server = try InspectorServer(
            address: ListenAddress(host: "127.0.0.1", port: 0), token: token, hub: InspectorHub(),
            screenshots: InspectorScreenshots(socketPath: "/nonexistent/appstate.sock", tree: nil), group: group)
        port = try XCTUnwrap(Int(server.url.split(separator: ":")[2].prefix { $0.isNumber }))
    }

    override func tearDown() {
        server = nil
        try? group.syncShutdownGracefully()
        super.tearDown()
    }

    func testRequests_whenTheTokenIsMissingOrWrong_thenAre403WhateverWasAskedWithTheSecurityHeaders() throws {
        let connection = try HTTPTestConnection(port: port)
        for target in [
            "/", "/events", "/entries/1", "/screenshot", "/screenshot?token=1234567", "/nothing", "/?token=", "/?token=1234567",
            "/?token=123456789", "/?Token=12345678", "/?tok=12345678", "/events?token=12345679", "/token=12345678", "/?x=token=12345678",
        ] {
            for method in ["GET", "POST", "DELETE"] {
                let response = try connection.request(method, target, headers: [("Authorization", "Bearer 12345678")])
                XCTAssertEqual(response.status, 403, "\(method) \(target)")
                XCTAssertEqual(response.header("X-Frame-Options"), "DENY")
            }
        }
    }

    func testRequests_whenTheTokenIsInTheQuery_thenAreRoutedWithTheSecurityHeadersAndNoCookie() throws {
        let connection = try HTTPTestConnection(port: port)
        let page = try connection.request("GET", "/?token=12345678")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(page.header("Cache-Control"), "no-store")
        XCTAssertEqual(page.header("Referrer-Policy"), "no-referrer")
        XCTAssertEqual(page.header("X-Content-Type-Options"), "nosniff")
        XCTAssertTrue(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'; script-src 'unsafe-inline'") == true)
        XCTAssertNil(page.header("Set-Cookie"))
        XCTAssertEqual(try connection.request("POST", "/?token=12345678").status, 405)
        XCTAssertEqual(try connection.request("GET", "/entries/1?x=1&token=12345678").status, 404)
        XCTAssertEqual(
            try connection.request("GET", "/", headers: [("Origin", "http://evil.example")]).status, 403, "the token still decides")
        XCTAssertEqual(try connection.request("GET", "/?token=12345678", headers: [("Origin", "http://evil.example")]).status, 200)
    }

    func testShutdown_whenAPageFollowsTheEvents_thenItsStreamEndsAndNothingMoreIsAccepted() async throws {
        let viewer = try HTTPTestConnection(port: port)
        XCTAssertEqual(try viewer.request("GET", "/events?token=12345678").status, 200)
        XCTAssertEqual(try viewer.readEvent()?.name, "status")
        await server.service().server.shutdown()
        // Whatever the hub had queued comes first; then the stream ends instead of timing out.
        while let event = try viewer.readEvent(timeout: .seconds(5)) { XCTAssertNotEqual(event.name, "change") }
        XCTAssertThrowsError(try HTTPTestConnection(port: port), "the server no longer listens")
    }
}
