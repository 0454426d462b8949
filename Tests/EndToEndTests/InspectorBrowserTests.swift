import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `appstate-inspect` end to end: the real binary between the real daemon and a real
/// browser (Debian's chromium, driven through chromedriver by Selenium from the venv),
/// with the steps in `Tests/Browser/inspector_browser.py`.
final class InspectorBrowserTests: AppStateTestCase {
    private static let script = Products.repository.appendingPathComponent("Tests/Browser/inspector_browser.py").path

    func testInspector_whenTheDaemonChangesInChromium_thenThePageFollowsShowsTheKeyboardAndLooksBack() throws {
        _ = try resolveExecutable("chromium")
        _ = try resolveExecutable("chromedriver")
        let daemon = try DaemonProcess()
        let inspector = try InspectorProcess(socket: daemon.socketPath)
        let result = try Command.run(
            Products.python.path,
            [Self.script, "check", "--url", inspector.url, "--socket", daemon.socketPath, "--ctl", Products.appstatectl.path],
            environment: ["SE_OFFLINE": "true"]
        )
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix("inspector browser check: passed\n"), result.stdout + result.stderr)
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testInspector_whenStarted_thenPrintsALoopbackURLWithA128BitToken() throws {
        let daemon = try DaemonProcess()
        let first = try InspectorProcess(socket: daemon.socketPath)
        let second = try InspectorProcess(socket: daemon.socketPath)
        let pattern = /^http:\/\/127\.0\.0\.1:([0-9]+)\/\?token=([0-9a-f]{32})$/
        let one = try XCTUnwrap(first.url.wholeMatch(of: pattern), first.url)
        let two = try XCTUnwrap(second.url.wholeMatch(of: pattern), second.url)
        XCTAssertNotEqual(one.output.2, two.output.2, "each inspector draws its own token")
        XCTAssertNotEqual(Int(one.output.1), 0)
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testInspector_whenSIGTERMWhileAPageFollowsTheEvents_thenEndsTheStreamAndExits0() throws {
        let daemon = try DaemonProcess()
        let inspector = try InspectorProcess(socket: daemon.socketPath)
        let address = try XCTUnwrap(inspector.url.wholeMatch(of: /http:\/\/127\.0\.0\.1:([0-9]+)\/\?token=([0-9a-f]+)/))
        let page = try HTTPTestConnection(port: try XCTUnwrap(Int(address.output.1)))
        XCTAssertEqual(try page.request("GET", "/events?token=\(address.output.2)").status, 200)
        // The tree: the current one, or the first, when the inspector connected after the page.
        _ = try page.readEvents(until: { $0.name == "snapshot" || $0.name == "change" })
        try assertGracefulStop(of: inspector.process, whileReading: page)
    }

    func testInspector_whenSIGTERMRightAfterItPrintedItsURL_thenExits0() throws {
        let daemon = try DaemonProcess()
        let inspector = try InspectorProcess(socket: daemon.socketPath)
        let exited = expectation(description: "exited")
        inspector.process.terminationHandler = { _ in exited.fulfill() }
        XCTAssertEqual(kill(inspector.process.processIdentifier, SIGTERM), 0)
        wait(for: [exited], timeout: 5)
        XCTAssertEqual(inspector.process.terminationReason, .exit, "the URL comes once SIGTERM is trapped")
        XCTAssertEqual(inspector.process.terminationStatus, 0)
    }

    func testInspector_whenListenIsNotHostAndPort_thenExits64() throws {
        let result = try Command.run(Products.appstateInspect.path, ["--listen", "127.0.0.1"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--listen takes HOST:PORT"), result.stderr)
    }
}
