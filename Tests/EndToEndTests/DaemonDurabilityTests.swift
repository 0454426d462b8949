import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// What the daemon acknowledged survives a crash; what is transient does not come back.
final class DaemonDurabilityTests: AppStateTestCase {
    func testRestart_whenKilledAfterAcknowledgedMutations_thenTheSameChildrenAreCurrent() throws {
        let daemon = try DaemonProcess()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: "io.appstate.ShowKeyboard", parameters: ["height": 200])
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["id": "settings"])
        _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "inbox"])
        _ = try client.call(method: "io.appstate.Push", parameters: ["id": "message"])
        _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "pages"])
        daemon.kill9()

        try daemon.restart()
        let restarted = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try restarted.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/settings")
        XCTAssertEqual(
            try restarted.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/inbox"])["path"],
            "session/home/inbox/message")
        XCTAssertEqual(try restarted.call(method: "io.appstate.GetTree")["root"]?["user"], "ada")
        _ = try restarted.call(method: "io.appstate.Logout")
        let login = try restarted.call(method: "io.appstate.GetCurrent", parameters: ["path": "session"])["node"]
        XCTAssertEqual(login?["keyboardOverlap"], 0, "the keyboard is transient")
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testRestart_whenStateFileCorrupt_thenRefusesToStartNamingTheFile() throws {
        let daemon = try DaemonProcess()
        _ = try VarlinkClient(path: daemon.socketPath).call(method: "io.appstate.Login", parameters: ["user": "ada"])
        XCTAssertEqual(daemon.stop(), 0)
        let stateFile = daemon.stateDirectory + "/state.json"
        try Data("{\"version\":1,\"trees\":".utf8).write(to: URL(fileURLWithPath: stateFile))
        let run = try Command.run(Products.appstated.path, ["--socket", daemon.socketPath, "--state-dir", daemon.stateDirectory])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains(stateFile), run.stderr)
    }
}
