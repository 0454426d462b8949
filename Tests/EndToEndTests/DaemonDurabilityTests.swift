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

    func testRestart_whenStateFileCorrupt_thenStartsAtTheInitialStateAndLogsWhereTheFileWent() throws {
        let daemon = try DaemonProcess()
        _ = try VarlinkClient(path: daemon.socketPath).call(method: "io.appstate.Login", parameters: ["user": "ada"])
        XCTAssertEqual(daemon.stop(), 0)
        let stateFile = daemon.stateDirectory + "/state.json"
        let damaged = Data("{\"version\":1,\"trees\":".utf8)
        try damaged.write(to: URL(fileURLWithPath: stateFile))

        try daemon.restart()

        let client = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
        let aside = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory).filter { $0.hasPrefix("state.json.corrupt-") }
        XCTAssertEqual(aside.count, 1, "\(aside)")
        let moved = daemon.stateDirectory + "/" + (aside.first ?? "")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: moved)), damaged, "kept as it was")
        let journal = daemon.stderrText
        XCTAssertTrue(journal.contains("state file set aside: \(stateFile) is not a valid state file"), journal)
        XCTAssertTrue(journal.contains("kept as \(moved); the trees start from the tree file's initial state"), journal)
        // The first change writes a new state file, which outlives a crash.
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        daemon.kill9()
        try daemon.restart()
        XCTAssertEqual(try VarlinkClient(path: daemon.socketPath).call(method: "io.appstate.GetTree")["root"]?["user"], "ada")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: moved)), damaged)
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }
}
