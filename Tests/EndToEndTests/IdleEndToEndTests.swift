import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// The idle steps and inhibitors against the real `appstated`, with one-second steps: the
/// steps fire in order on the daemon's clock, activity keeps them back, and an inhibitor
/// holds them for as long as its connection is open, however the connection ends.
final class IdleEndToEndTests: AppStateTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = try DaemonProcess.makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try super.tearDownWithError()
    }

    /// A daemon whose one tree locks after 1 s and logs out after 2 s without activity.
    private func startDaemon() throws -> DaemonProcess {
        let file = directory.appendingPathComponent("kiosk.yaml")
        try """
        trees:
          - name: kiosk
            root:
              type: LoginStateController
              id: session
              children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
            idle:
              - { after: 1, lock: true }
              - { after: 2, logout: true }
        """.write(to: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--tree-file", file.path])
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.stop(), 0, $0.stderrText) }
        return daemon
    }

    /// Polls the daemon until `condition` holds of the tree's root, or fails after `timeout`.
    private func waitForRoot(_ daemon: DaemonProcess, _ what: String, timeout: TimeInterval = 10, _ condition: (JSONValue?) -> Bool) throws {
        let client = try VarlinkClient(path: daemon.socketPath)
        let deadline = Date().addingTimeInterval(timeout)
        var root: JSONValue?
        while Date() < deadline {
            root = try client.call(method: GetTree.name)["root"]
            if condition(root) { return }
            usleep(20_000)
        }
        throw TestFailure("\(what) did not happen within \(timeout) s: \(root?.jsonText ?? "no tree")")
    }

    private func stats(_ daemon: DaemonProcess) throws -> GetStats.Reply {
        try VarlinkClient(path: daemon.socketPath).call(GetStats.self, .init())
    }

    func testIdleSteps_whenNobodyUsesTheTree_thenItLocksAfterOneSecondAndLogsOutAfterTwo() throws {
        let daemon = try startDaemon()
        let client = try VarlinkClient(path: daemon.socketPath)
        let loggedIn = Date()
        _ = try client.call(method: Login.name, parameters: ["user": "ada"])
        try waitForRoot(daemon, "the lock") { $0?["locked"] == true }
        let locked = Date().timeIntervalSince(loggedIn)
        XCTAssertGreaterThanOrEqual(locked, 0.95, "not before its second")
        let idle = try XCTUnwrap(try stats(daemon).idle.first)
        XCTAssertEqual(idle.tree, "kiosk")
        XCTAssertEqual(idle.nextStep, "logout")
        let status = try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath, "status"])
        XCTAssertTrue(status.stdout.contains("\n       Idle: kiosk: "), status.stdout)
        try waitForRoot(daemon, "the logout") { $0?["user"] == nil }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(loggedIn), 1.95)
        XCTAssertEqual(try stats(daemon).idle.first?.stepsFired, 2)
    }

    func testReportActivity_whileReportedEveryFifthOfASecond_thenNoStepFires() throws {
        let daemon = try startDaemon()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: Login.name, parameters: ["user": "ada"])
        let start = Date()
        while Date().timeIntervalSince(start) < 2.5 {
            _ = try client.call(ReportActivity.self, .init())
            usleep(200_000)
        }
        XCTAssertEqual(try client.call(method: GetTree.name)["root"]?["locked"], false)
        let command = try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath, "activity"])
        XCTAssertEqual(command.status, 0, command.stderr)
        XCTAssertEqual(command.stdout, "")
        XCTAssertLessThan(try XCTUnwrap(try stats(daemon).idle.first).idleSeconds, 1)
        try waitForRoot(daemon, "the lock once the reports stop") { $0?["locked"] == true }
    }

    func testInhibit_whenTheClientClosesOrDies_thenTheInhibitorEndsAndTheClockStartsAgain() throws {
        let daemon = try startDaemon()
        _ = try VarlinkClient(path: daemon.socketPath).call(method: Login.name, parameters: ["user": "ada"])
        for ending in ["close", "shutdown"] {
            var holder: ProbeConnection? = try ProbeConnection(path: daemon.socketPath)
            holder?.send(frame: #"{"method":"io.appstate.Inhibit","parameters":{"why":"card payment"},"more":true}"#)
            let reply = try XCTUnwrap(holder?.nextRawFrame(), "answered at once")
            XCTAssertEqual(String(decoding: reply, as: UTF8.self), #"{"parameters":{},"continues":true}"#)
            let inhibitors = try stats(daemon).inhibitors
            XCTAssertEqual(inhibitors.map(\.why), ["card payment"])
            XCTAssertEqual(inhibitors.first?.pid, Int(getpid()))
            XCTAssertEqual(inhibitors.first?.uid, Int(getuid()))
            _ = try VarlinkClient(path: daemon.socketPath).call(method: Unlock.name)
            _ = try VarlinkClient(path: daemon.socketPath).call(ReportActivity.self, .init())
            // Held past both steps' times.
            let held = Date()
            while Date().timeIntervalSince(held) < 2.2 { usleep(100_000) }
            XCTAssertEqual(try VarlinkClient(path: daemon.socketPath).call(method: GetTree.name)["root"]?["locked"], false, ending)
            // A client that dies has its socket closed by the kernel, as close does here.
            let ended = Date()
            if ending == "close" { holder = nil } else { holder?.shutdownWrite() }
            let deadline = Date().addingTimeInterval(10)
            while try !stats(daemon).inhibitors.isEmpty, Date() < deadline { usleep(20_000) }
            XCTAssertEqual(try stats(daemon).inhibitors.count, 0, ending)
            try waitForRoot(daemon, "the lock after the inhibitor's end (\(ending))") { $0?["locked"] == true }
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(ended), 0.95, "the clock started again when it ended")
            withExtendedLifetime(holder) {}
        }
    }

    func testInhibitCommand_whenTheCommandEnds_thenExitsWithItsStatusHavingHeldTheInhibitor() throws {
        let daemon = try startDaemon()
        let script = #""$0" --socket "$1" --json status; exit 3"#
        let result = try Command.run(
            Products.appstatectl.path,
            [
                "--socket", daemon.socketPath, "inhibit", "--why", "card payment", "--", "/bin/sh", "-c", script, Products.appstatectl.path,
                daemon.socketPath,
            ])
        XCTAssertEqual(result.status, 3, result.stderr)
        let status = try JSONValue(jsonText: result.stdout)
        XCTAssertEqual(status["stats"]?["inhibitors"]?[0]?["why"], "card payment", result.stdout)
        XCTAssertEqual(try stats(daemon).inhibitors.count, 0, "released when the command ended")

        let missing = try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath, "inhibit", "--why", "x", "--", "/nonexistent/tool"])
        XCTAssertEqual(missing.status, 127)
        let usage = try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath, "inhibit", "--why", "x"])
        XCTAssertEqual(usage.status, 64)
    }

    func testInhibit_whenCalledWithoutMore_thenExpectedMore() throws {
        let daemon = try startDaemon()
        XCTAssertThrowsError(try VarlinkClient(path: daemon.socketPath).call(method: Inhibit.name, parameters: ["why": "x"])) { error in
            XCTAssertEqual(error as? VarlinkError, .expectedMore)
        }
        XCTAssertEqual(try stats(daemon).inhibitors.count, 0)
    }
}
