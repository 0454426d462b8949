import AppStateCore
import AppStateGatewayKit
import AppStateIPC
import TestSupport
import XCTest

/// The gateway answers a daemon's error with the HTTP status of its catalogue entry.
final class GatewayRefusalTests: AppStateTestCase {
    func testDaemonError_whenDeclared_thenTheCataloguesStatus() {
        for entry in ErrorCatalogue.all {
            let refusal = GatewayRefusal.daemon(entry.example.name, parameters: entry.example.parameters)
            XCTAssertEqual(refusal.status, entry.httpStatus, entry.example.name)
            XCTAssertEqual(refusal.name, entry.example.name)
        }
        XCTAssertEqual(GatewayRefusal.daemon(VarlinkError.noSuchNode(path: "x").name, parameters: [:]).status, 404)
        XCTAssertEqual(GatewayRefusal.daemon(VarlinkError.alreadyLoggedIn(user: "ada").name, parameters: [:]).status, 409)
    }

    func testDaemonError_whenUndeclared_thenARefusal() {
        XCTAssertEqual(GatewayRefusal.daemon("io.example.Unknown", parameters: [:]).status, 400)
    }

    /// A daemon that is full says so, and when to try again.
    func testDaemonError_whenTheDaemonIsFull_thenRetryAfter() {
        let refusal = GatewayRefusal.daemon(VarlinkError.tooManyConnections(limit: 1).name, parameters: [:])
        XCTAssertEqual(refusal.status, 503)
        XCTAssertTrue(refusal.headers.contains { $0.0 == "Retry-After" })
    }
}
