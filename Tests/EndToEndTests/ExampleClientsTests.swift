import Foundation
import TestSupport
import XCTest

/// The example clients in examples/clients, run as a front-end author would run them.
final class ExampleClientsTests: AppStateTestCase {
    private let clients = Products.repository.appendingPathComponent("examples/clients")

    func testRawCall_whenLoggingInWithSocat_thenPrintsTheReplyFrame() throws {
        let daemon = try DaemonProcess()
        let script = clients.appendingPathComponent("raw-call.sh").path
        let login = try Command.run(
            "/bin/sh", [script, "io.appstate.Login", #"{"user":"ada"}"#], environment: ["APPSTATE_SOCKET": daemon.socketPath])
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertEqual(login.stdout, #"{"parameters":{"path":"session/home"}}"# + "\n")
        let error = try Command.run("/bin/sh", [script, "io.appstate.SetPage", #"{"index":9}"#], environment: ["APPSTATE_SOCKET": daemon.socketPath])
        XCTAssertTrue(error.stdout.contains(#""error":"io.appstate.OutOfRange""#), error.stdout)
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testWatchScreen_whenAnotherClientLogsIn_thenPrintsTheSnapshotThenTheNewScreen() throws {
        let daemon = try DaemonProcess()
        let output = daemon.directory.appendingPathComponent("watch.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let watcher = Process()
        watcher.executableURL = Products.python
        watcher.arguments = [clients.appendingPathComponent("watch-screen.py").path, "unix:" + daemon.socketPath, "--count", "1"]
        watcher.standardOutput = try FileHandle(forWritingTo: output)
        try watcher.runAsTestChild()
        // The first line is the snapshot: once it is there the watcher is subscribed.
        let deadline = Date().addingTimeInterval(20)
        while (try String(contentsOf: output, encoding: .utf8)).isEmpty, Date() < deadline, watcher.isRunning {
            RunLoop.current.run(until: Date().addingTimeInterval(0.02))
        }
        try Command.run(Products.appstatectl.path, ["login", "ada", "--socket", daemon.socketPath])
        watcher.waitUntilExit()
        XCTAssertEqual(watcher.terminationStatus, 0)
        XCTAssertEqual(
            try String(contentsOf: output, encoding: .utf8).split(separator: "\n"),
            [
                "snapshot: session/login/login-form 1280x800+0+0",
                "Login: session/home/pages/overview 1280x800+0+0",
            ])
        XCTAssertEqual(daemon.stop(), 0)
    }
}
