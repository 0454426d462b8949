import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A tree file's `url`s through the real daemon: `GetTree`, `GetCurrent`, both shapes of
/// `Watch`, `appstatectl tree` and a reload carry them, and `appstated --check` refuses a url
/// that is not http, https or file, naming its node.
final class TreeFileURLEndToEndTests: AppStateTestCase {
    private static func treeFile(welcome: String) -> String {
        """
        trees:
          - name: kiosk
            root:
              type: LoginStateController
              id: session
              url: https://kiosk.example/
              children:
                - { type: Controller, id: welcome, url: "\(welcome)" }
                - type: PaginatedController
                  id: pages
                  children:
                    - { type: Controller, id: first, url: "file:///srv/kiosk/first.html" }
                    - { type: Controller, id: second }
            presentations:
              - { type: Controller, id: saver, url: "http://127.0.0.1:8470/saver" }
        """
    }

    private func write(_ text: String, to name: String, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func child(_ node: JSONValue?, _ identifier: String) -> JSONValue? {
        guard case .array(let children)? = node?["children"] else { return nil }
        return children.first { $0["identifier"] == .string(identifier) }
    }

    /// The node with `identifier` in a subtree as JSON decoded it, itself included.
    private func node(_ identifier: String, in subtree: [String: Any]) -> [String: Any]? {
        if subtree["identifier"] as? String == identifier { return subtree }
        return (subtree["children"] as? [[String: Any]] ?? []).lazy.compactMap { self.node(identifier, in: $0) }.first
    }

    private func ctl(_ daemon: DaemonProcess, _ arguments: String...) throws -> Command {
        try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath] + arguments, environment: ["NO_COLOR": "1"])
    }

    func testURL_whenTheTreeFileGivesThem_thenEveryReadWatchAndTheTreeCommandCarryThemAndAReloadChangesThem() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try write(Self.treeFile(welcome: "https://kiosk.example/welcome"), to: "kiosk.yaml", in: directory)
        let daemon = try DaemonProcess(arguments: ["--tree-file", file.path])
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.stop(), 0, $0.stderrText) }
        let client = try VarlinkClient(path: daemon.socketPath)

        let root = try client.call(method: GetTree.name)["root"]
        XCTAssertEqual(root?["url"], "https://kiosk.example/")
        XCTAssertEqual(child(root, "welcome")?["url"], "https://kiosk.example/welcome")
        XCTAssertNil(child(root, "pages")?["url"], "a node without url has none")
        XCTAssertEqual(child(child(root, "pages"), "first")?["url"], "file:///srv/kiosk/first.html")
        XCTAssertNil(child(child(root, "pages"), "second")?["url"])
        let current = try client.call(method: GetCurrent.name)
        XCTAssertEqual(current["path"], "session/welcome")
        XCTAssertEqual(current["node"]?["url"], "https://kiosk.example/welcome")

        let changes = try RawConnection(path: daemon.socketPath)
        changes.send(frame: #"{"method":"io.appstate.Watch","parameters":{"subtrees":true},"more":true}"#)
        let full = try RawConnection(path: daemon.socketPath)
        full.send(frame: #"{"method":"io.appstate.Watch","parameters":{"full":true},"more":true}"#)
        let firsts = [changes.receive(frames: 1).frames.first, full.receive(frames: 1).frames.first]
        for first in firsts {
            XCTAssertEqual(((first?["parameters"] as? [String: Any])?["root"] as? [String: Any])?["url"] as? String, "https://kiosk.example/")
        }
        _ = try client.call(method: Login.name, parameters: ["user": "ada"])
        _ = try client.call(method: Present.name, parameters: ["id": "saver"])
        let changed = changes.receive(frames: 2).frames.compactMap { ($0["parameters"] as? [String: Any])?["changed"] as? [[String: Any]] }
        XCTAssertEqual(changed.count, 2, "a reply of changes for each call")
        XCTAssertEqual(changed.first?.first?["url"] as? String, "https://kiosk.example/", "the login changed the root's subtree")
        let presented = (changed.last ?? []).lazy.compactMap { self.node("saver", in: $0) }.first
        XCTAssertEqual(presented?["url"] as? String, "http://127.0.0.1:8470/saver", "\(changed)")
        let wholeTrees = full.receive(frames: 2).frames.compactMap { ($0["parameters"] as? [String: Any])?["root"] as? [String: Any] }
        XCTAssertEqual(wholeTrees.count, 2)
        XCTAssertEqual(
            ((wholeTrees.last?["children"] as? [[String: Any]])?.last)?["url"] as? String, "http://127.0.0.1:8470/saver",
            "the presented controller, listed last")

        let tree = try ctl(daemon, "tree")
        XCTAssertEqual(tree.status, 0, tree.stderr)
        XCTAssertTrue(tree.stdout.hasPrefix("session LoginStateController off screen, user ada, url https://kiosk.example/\n"), tree.stdout)
        XCTAssertTrue(tree.stdout.contains("welcome Controller off screen, url https://kiosk.example/welcome\n"), tree.stdout)
        XCTAssertTrue(tree.stdout.contains("first Controller off screen, url file:///srv/kiosk/first.html ◀ current\n"), tree.stdout)
        XCTAssertTrue(tree.stdout.contains("saver Controller 1280×800+0+0, url http://127.0.0.1:8470/saver ▲ presented\n"), tree.stdout)
        let json = try ctl(daemon, "tree", "--json")
        XCTAssertEqual(try JSONValue(jsonText: json.stdout.trimmingCharacters(in: .newlines))["root"]?["url"], "https://kiosk.example/")

        _ = try write(Self.treeFile(welcome: "https://kiosk.example/hello"), to: "kiosk.yaml", in: directory)
        daemon.signal(SIGHUP)
        XCTAssertNotNil(daemon.notify.waitFor("READY=1"), daemon.stderrText)
        let reloaded = try client.call(method: GetTree.name)["root"]
        XCTAssertEqual(child(reloaded, "welcome")?["url"], "https://kiosk.example/hello")
        XCTAssertEqual(reloaded?["user"], "ada", "the state is kept")
    }

    func testCheck_whenANodesURLIsFTP_thenRefusedNamingTheNodeAndItsLine() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try write(
            Self.treeFile(welcome: "https://kiosk.example/welcome").replacingOccurrences(of: "file:///srv/kiosk/first.html", with: "ftp://x"),
            to: "kiosk.yaml", in: directory)

        let check = try Command.run(Products.appstated.path, ["--check", file.path])

        XCTAssertEqual(check.status, 65, check.stdout + check.stderr)
        XCTAssertTrue(
            (check.stdout + check.stderr).contains(
                #"line 12, column 15: trees[0].root.children[1].children[0]: url "ftp://x" is not an http, https or file URL"#),
            check.stdout + check.stderr)
        let valid = try Command.run(
            Products.appstated.path, ["--check", try write(Self.treeFile(welcome: "https://kiosk.example/"), to: "ok.yaml", in: directory).path])
        XCTAssertEqual(valid.status, 0, valid.stdout + valid.stderr)
    }
}
