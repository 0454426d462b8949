import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `appstate-kiosk` switching the output's power through wlr-output-power-management while the
/// screen is blanked, against real compositors started headless: sway 1.7, which offers the
/// protocol, and cage 0.1.4, which does not. Debian's chromium runs headless beside them; the
/// kiosk is the compositor's client for the power only.
///
/// sway 1.7 on wlroots' headless backend cannot commit an output off (it logs "Failed to commit
/// output HEADLESS-1", for `swaymsg output HEADLESS-1 dpms off` too), so it answers the kiosk's
/// `set_mode(off)` by keeping the output on: what the kiosk must then report.
final class KioskOutputPowerTests: AppStateTestCase {
    private var daemon: DaemonProcess!
    private var directory: URL!

    private func startDaemon() throws {
        _ = try resolveExecutable("chromium")
        directory = try DaemonProcess.makeTemporaryDirectory()
        let page = directory.appendingPathComponent("page.html")
        try "<html><body>on screen</body></html>".write(to: page, atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("kiosk.yaml")
        try """
        version: 1
        trees:
          - name: kiosk
            window: { width: 640, height: 480 }
            root: { type: Controller, id: home, url: "\(page.absoluteString)" }
        """.write(to: file, atomically: true, encoding: .utf8)
        daemon = try DaemonProcess(arguments: ["--tree-file", file.path], directory: directory)
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.stop(), 0, $0.stderrText) }
    }

    /// A kiosk with a status socket of its own name, on the compositor's socket when given.
    private func startKiosk(_ name: String, compositor: HeadlessCompositor?, arguments: [String] = []) throws -> (KioskProcess, String) {
        let status = directory.appendingPathComponent("\(name).sock").path
        let kioskDirectory = directory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: kioskDirectory, withIntermediateDirectories: true)
        let environment = try compositor.map { ["WAYLAND_DISPLAY": try $0.socketPath] } ?? [:]
        let kiosk = try KioskProcess(
            socket: daemon.socketPath, in: kioskDirectory, arguments: ["--status-socket", status] + arguments, environment: environment)
        addTeardownBlock { XCTAssertEqual(kiosk.stop(), 0, kiosk.messages) }
        return (kiosk, status)
    }

    private func startCompositor(_ kind: HeadlessCompositor.Kind) throws -> HeadlessCompositor {
        let compositor = try HeadlessCompositor(kind, in: directory)
        addTeardownBlock { compositor.kill() }
        return compositor
    }

    /// Waits until the kiosk's `GetStatus` reports this output power (and a reason containing `reason`).
    @discardableResult
    private func waitForPower(
        _ power: String, reason: String? = nil, blanked: Bool, on status: String, _ kiosk: KioskProcess, timeout: TimeInterval = 20
    ) throws -> [String: JSONValue] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String: JSONValue] = [:]
        repeat {
            if let reply = try? VarlinkClient(path: status).call(method: "io.appstate.kiosk.GetStatus") {
                last = reply
                let reasonMatches = reason.map { reply["outputPowerReason"]?.stringValue?.contains($0) == true } ?? true
                if reply["outputPower"] == .string(power), reply["blanked"] == .bool(blanked), reasonMatches { return reply }
            }
            usleep(50_000)
        } while Date() < deadline
        throw TestFailure("the kiosk did not report outputPower \(power); its status is \(last); it said:\n\(kiosk.messages)")
    }

    private func ctl(_ arguments: String...) throws {
        let result = try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testOutputPower_whenSwayIsAskedToSwitchItsHeadlessOutputOff_thenTheKioskReportsItKeptItOnAndWakeGivesOn() throws {
        try startDaemon()
        let sway = try startCompositor(.sway)
        let (kiosk, status) = try startKiosk("kiosk", compositor: sway)
        try waitForPower("on", blanked: false, on: status, kiosk)
        try ctl("blank")
        try waitForPower("unsupported", reason: "kept HEADLESS-1 on", blanked: true, on: status, kiosk)
        try kiosk.waitForMessage("cannot switch the output's power")
        try ctl("wake")
        try waitForPower("on", blanked: false, on: status, kiosk)
    }

    func testOutputPower_whenAnotherClientHoldsTheControl_thenSwaysFailedEventIsReported() throws {
        try startDaemon()
        let sway = try startCompositor(.sway)
        let (first, firstStatus) = try startKiosk("first", compositor: sway)
        try waitForPower("on", blanked: false, on: firstStatus, first)
        let (second, secondStatus) = try startKiosk("second", compositor: sway, arguments: ["--output", "HEADLESS-1"])
        try waitForPower("unsupported", reason: "refused the power control of HEADLESS-1", blanked: false, on: secondStatus, second)
        try second.waitForMessage("refused the power control of HEADLESS-1")
    }

    func testOutputPower_whenTheNamedOutputIsMissingOrSwayGoesAway_thenTheKioskSaysWhyAndStaysUp() throws {
        try startDaemon()
        let sway = try startCompositor(.sway)
        let (kiosk, status) = try startKiosk("kiosk", compositor: sway, arguments: ["--output", "HDMI-A-9"])
        try waitForPower("unsupported", reason: "has no output HDMI-A-9", blanked: false, on: status, kiosk)
        sway.kill()
        try waitForPower("unsupported", reason: "closed the connection", blanked: false, on: status, kiosk)
        try ctl("blank")
        try waitForPower("unsupported", reason: "no Wayland compositor at", blanked: true, on: status, kiosk)
        XCTAssertTrue(kiosk.process.isRunning, kiosk.messages)
    }

    func testOutputPower_whenTheCompositorIsCage_thenItOffersNoPowerControlAndTheScreenIsOnlyCovered() throws {
        try startDaemon()
        let cage = try startCompositor(.cage)
        let (kiosk, status) = try startKiosk("kiosk", compositor: cage)
        try waitForPower("unsupported", reason: "does not offer wlr-output-power-management-unstable-v1", blanked: false, on: status, kiosk)
        try ctl("blank")
        try waitForPower("unsupported", reason: "does not offer", blanked: true, on: status, kiosk)
        XCTAssertEqual(kiosk.messages.components(separatedBy: "does not offer").count, 2, "said once: \(kiosk.messages)")
    }

    func testOutputPower_whenTheOutputIsNamedEmpty_thenExits64() throws {
        let result = try Command.run(Products.appstateKiosk.path, ["--output", ""])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--output takes an output's name"), result.stderr)
    }

    func testOutputPower_whenWaylandDisplayIsUnset_thenTheStatusSaysSo() throws {
        try startDaemon()
        let (kiosk, status) = try startKiosk("kiosk", compositor: nil)
        try ctl("blank")
        try waitForPower("unsupported", reason: "WAYLAND_DISPLAY is not set", blanked: true, on: status, kiosk)
    }
}
