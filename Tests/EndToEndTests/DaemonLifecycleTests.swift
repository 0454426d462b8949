import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon as systemd sees it: readiness, status, watchdog, reload and stop, with a
/// real datagram socket as NOTIFY_SOCKET.
final class DaemonLifecycleTests: AppStateTestCase {
    func testStart_whenNotifySocketSet_thenSendsReadyWithStatusAfterListening() throws {
        let daemon = try DaemonProcess()
        let ready = try XCTUnwrap(daemon.startupMessages.last)
        XCTAssertTrue(ready.contains("READY=1"))
        XCTAssertTrue(ready.contains("STATUS="), ready)
        let client = try VarlinkClient(path: daemon.socketPath)
        let info = try client.call(method: "org.varlink.service.GetInfo")
        XCTAssertEqual(info["product"], "appstated")
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testStop_whenSIGTERM_thenSendsStoppingRemovesSocketAndExitsZero() throws {
        let daemon = try DaemonProcess()
        daemon.signal(SIGTERM)
        XCTAssertNotNil(daemon.notify.waitFor("STOPPING=1"), daemon.stderrText)
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    func testWatchdog_whenWatchdogUSecSet_thenPingsRepeatedly() throws {
        let daemon = try DaemonProcess(environment: ["WATCHDOG_USEC": "200000"])
        for _ in 0..<3 {
            XCTAssertNotNil(daemon.notify.waitFor("WATCHDOG=1", timeout: 5), "no WATCHDOG=1 ping")
        }
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testWatchdog_whenWatchdogPIDNamesAnotherProcess_thenDoesNotPing() throws {
        let daemon = try DaemonProcess(environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        XCTAssertNil(daemon.notify.waitFor("WATCHDOG=1", timeout: 1))
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testReload_whenSIGHUP_thenSendsReloadingThenReadyAndKeepsState() throws {
        let daemon = try DaemonProcess()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        daemon.signal(SIGHUP)
        let messages = try XCTUnwrap(daemon.notify.waitFor("READY=1"), daemon.stderrText)
        XCTAssertTrue(messages.joined(separator: "\n").contains("RELOADING=1"), "\(messages)")
        let current = try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session"])
        XCTAssertEqual(current["path"], "session/home")
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testStart_whenTreeFileInvalid_thenExitsNonZeroNamingThePlace() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.yaml")
        try "trees:\n  - name: main\n    root:\n      type: Pager\n      id: p\n".write(to: file, atomically: true, encoding: .utf8)
        let check = try Command.run(Products.appstated.path, ["--check", file.path])
        XCTAssertNotEqual(check.status, 0)
        XCTAssertTrue((check.stdout + check.stderr).contains("trees[0].root"), check.stdout + check.stderr)
        XCTAssertTrue((check.stdout + check.stderr).contains("Pager"), check.stdout + check.stderr)
        let run = try Command.run(
            Products.appstated.path,
            [
                "--socket", directory.appendingPathComponent("s").path,
                "--state-dir", directory.path, "--tree-file", file.path,
            ])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("Pager"), run.stderr)
    }

    func testCheck_whenDefaultTreeShippedAsExample_thenValid() throws {
        let examples = Products.repository.appendingPathComponent("examples/trees")
        let files = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".yaml") }
        XCTAssertFalse(files.isEmpty)
        for name in files {
            let check = try Command.run(Products.appstated.path, ["--check", examples.appendingPathComponent(name).path])
            XCTAssertEqual(check.status, 0, "\(name): \(check.stdout)\(check.stderr)")
        }
    }

    func testStart_whenAnotherDaemonListens_thenRefusesToStealItsSocket() throws {
        let first = try DaemonProcess()
        let second = try Command.run(Products.appstated.path, ["--socket", first.socketPath, "--state-dir", first.stateDirectory + "2"])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertTrue(second.stderr.contains("already"), second.stderr)
        XCTAssertNoThrow(try VarlinkClient(path: first.socketPath).call(method: "org.varlink.service.GetInfo"))
        XCTAssertEqual(first.stop(), 0)
    }
}
