import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// Reads are answered on the connections' event loops from the trees the main actor
/// publishes: they must never show a state older than one a client was already told of,
/// and watchers must see the end of every change.
final class DaemonPublicationTests: AppStateTestCase {
    func testGetCurrent_whenAnotherClientChangedTheTree_thenAnswersTheNewState() throws {
        let daemon = try DaemonProcess()
        defer { XCTAssertEqual(daemon.stop(), 0, daemon.stderrText) }
        let reader = try VarlinkClient(path: daemon.socketPath)
        let writer = try VarlinkClient(path: daemon.socketPath)
        // Asked twice so that the answer is the one kept for this question.
        for _ in 0..<2 {
            XCTAssertEqual(try reader.call(method: GetCurrent.name)["path"], "session/login/login-form")
        }
        _ = try writer.call(method: Login.name, parameters: ["user": "ada"])
        XCTAssertEqual(try reader.call(method: GetCurrent.name)["path"], "session/home/pages/overview")
        _ = try writer.call(method: SetPage.name, parameters: ["index": 1])
        XCTAssertEqual(try reader.call(method: GetCurrent.name)["path"], "session/home/pages/activity/loading")
        XCTAssertEqual(try reader.call(method: GetCurrent.name, parameters: ["path": "session/home/pages"])["path"], "session/home/pages/activity")
        let tree = try reader.call(method: GetTree.name)
        XCTAssertEqual(tree["root"]?["current"], "home")
    }

    /// A daemon on a tree whose login container animates its swap, stopped (and checked to
    /// exit cleanly) when the test ends.
    private func startAnimatedDaemon() throws -> DaemonProcess {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("animated.yaml")
        try """
        version: 1
        trees:
          - name: main
            window: { width: 800, height: 600 }
            root:
              type: LoginStateController
              id: session
              transitionMs: 150
              children:
                - { type: Controller, id: login }
                - { type: Controller, id: home }
        """.write(to: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--tree-file", file.path])
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.stop(), 0, $0.stderrText) }
        return daemon
    }

    func testGetCurrent_whenAnAnimatedSwapFinishesAfterTheReply_thenTheEndStateIsAnswered() throws {
        let daemon = try startAnimatedDaemon()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: Login.name, parameters: ["user": "ada"])
        // The swap ends on the window's clock, with no call to follow: its end state must
        // still reach readers.
        let deadline = Date().addingTimeInterval(10)
        var node: JSONValue?
        repeat {
            node = try client.call(method: GetCurrent.name)["node"]
            if node?["identifier"] == "home", node?["appearance"] == "appeared" { break }
            usleep(10_000)
        } while Date() < deadline
        XCTAssertEqual(node?["identifier"], "home")
        XCTAssertEqual(node?["appearance"], "appeared")
    }

    func testWatch_whenAnAnimatedSwapFinishes_thenWatchersGetItsEndState() throws {
        let daemon = try startAnimatedDaemon()
        let watcher = try RawConnection(path: daemon.socketPath)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true,"parameters":{"full":true}}"#)
        XCTAssertEqual(watcher.receive(frames: 1).frames.count, 1)
        _ = try VarlinkClient(path: daemon.socketPath).call(method: Login.name, parameters: ["user": "ada"])
        let (frames, closed) = watcher.receive(frames: 2)
        XCTAssertFalse(closed)
        let replies = frames.map { $0["parameters"] as? [String: Any] ?? [:] }
        XCTAssertEqual(replies.map { ($0["event"] as? [String: Any])?["name"] as? String }, ["Login", "transition.didEnd"])
        let end = replies.last ?? [:]
        XCTAssertEqual((end["event"] as? [String: Any])?["current"] as? String, "session/home")
        let children = (end["root"] as? [String: Any])?["children"] as? [[String: Any]] ?? []
        let home = children.first { $0["identifier"] as? String == "home" }
        XCTAssertEqual(home?["appearance"] as? String, "appeared")
    }
}
