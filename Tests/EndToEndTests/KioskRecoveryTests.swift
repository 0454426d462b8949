import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// appstate-kiosk bringing its browser back: the real daemon on its default tree, headless
/// chromium showing a page of the test's own server (`--home`), and the renderer or the
/// browser killed or stopped, or the server taken down, as kiosks fail in the field.
final class KioskRecoveryTests: AppStateTestCase {
    private var pages: PageServer!
    private var daemon: DaemonProcess!
    private var kiosk: KioskProcess!

    /// Short timeouts, so that a hang is a hang within seconds.
    private static let quick = ["--liveness-interval", "0.5", "--hang-timeout", "2"]

    private func start(_ arguments: [String] = quick) throws {
        _ = try resolveExecutable("chromium")
        pages = try PageServer()
        addTeardownBlock { [pages] in pages?.stop() }
        daemon = try DaemonProcess()
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.stop(), 0, $0.stderrText) }
        kiosk = try KioskProcess(
            socket: daemon.socketPath, in: daemon.directory, arguments: ["--home", pages.url("/home?remember=ada")] + arguments)
        addTeardownBlock { [kiosk] in kiosk?.stop() }
        try kiosk.waitForReport(on: pages, "the home page") { $0["page"] == "home" && $0["event"] == "load" }
    }

    /// Waits for the home page to report a load after the first `reports` reports, and
    /// returns that report.
    @discardableResult
    private func waitForReload(after reports: Int, _ what: String, timeout: TimeInterval = 30) throws -> [String: String] {
        try kiosk.waitForReport(on: pages, what, after: reports, timeout: timeout) { $0["page"] == "home" && $0["event"] == "load" }
    }

    private func killRenderers(_ signal: Int32) throws {
        let renderers = kiosk.rendererPIDs
        XCTAssertFalse(renderers.isEmpty, "no renderer below appstate-kiosk")
        for renderer in renderers { kill(renderer, signal) }
    }

    func testRecovery_whenTheRendererIsKilled_thenTheCurrentPageIsLoadedAgain() throws {
        try start()
        let reports = pages.reports.count
        try killRenderers(SIGKILL)
        try waitForReload(after: reports, "after the renderer was killed")
        try kiosk.waitForMessage("the page crashed: reloading it")
    }

    func testRecovery_whenTheRendererIsStopped_thenThePageIsBackWithinTwiceTheHangTimeoutAndABrowserStart() throws {
        try start()
        let reports = pages.reports.count
        let stopped = Date()
        try killRenderers(SIGSTOP)
        try waitForReload(after: reports, "after the renderer was stopped", timeout: 2 * 2 + 15)
        XCTAssertLessThan(Date().timeIntervalSince(stopped), 2 * 2 + 15)
        try kiosk.waitForMessage("the page gave no sign of life")
    }

    func testRecovery_whenTheBrowserIsKilled_thenANewOneShowsTheScreenWithTheSessionsCookies() throws {
        try start()
        // The page set its cookie on arrival; a tick later appstate-kiosk has kept it.
        usleep(1_000_000)
        let reports = pages.reports.count
        kill(try XCTUnwrap(kiosk.browserPID), SIGKILL)
        let report = try waitForReload(after: reports, "after the browser was killed")
        XCTAssertEqual(report["cookie"], "customer=ada", "the session's cookie came back with the new browser")
        try kiosk.waitForMessage("restarting the browser")
    }

    func testRecovery_whenThePageServerIsDown_thenTheOfflinePageUntilItIsBack() throws {
        try start()
        let port = pages.port
        pages.stop()
        try killRenderers(SIGKILL)
        try kiosk.waitForMessage("showing the offline page")
        try kiosk.waitForMessage("still cannot load the page")
        pages = try PageServer(port: port)
        try kiosk.waitForReport(on: pages, "the home page, once its server is back") { $0["page"] == "home" && $0["event"] == "load" }
        try kiosk.waitForMessage("the page is back")
    }

    func testRecovery_whenTheBrowserFailsMoreOftenThanTheWindowAllows_thenExitsNonZeroForSystemd() throws {
        try start(Self.quick + ["--max-restarts", "1", "--restart-window", "300"])
        let reports = pages.reports.count
        kill(try XCTUnwrap(kiosk.browserPID), SIGKILL)
        try waitForReload(after: reports, "after the first kill")
        kill(try XCTUnwrap(kiosk.browserPID), SIGKILL)
        XCTAssertEqual(try kiosk.waitForExit(), 69)
        XCTAssertTrue(kiosk.messages.contains("restarted 1 times within"), kiosk.messages)
    }
}
