import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `Present` and `Dismiss` against the real daemon running `examples/trees/kiosk.yaml`: over raw
/// Varlink and through `appstatectl`, what `GetTree`, `GetCurrent` and `Watch` show, and what
/// a restart after `kill -9` presents again.
final class PresentationEndToEndTests: AppStateTestCase {
    /// Logged out, the kiosk shows its attract loop; the screensaver is its presentation.
    private static let attract = "session/attract/hello"

    private var daemon: DaemonProcess!

    override func setUpWithError() throws {
        daemon = try DaemonProcess(arguments: ["--tree-file", Products.repository.appendingPathComponent("examples/trees/kiosk.yaml").path])
    }

    override func tearDown() {
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
        daemon = nil
    }

    /// Sends one call as raw bytes and returns the reply frame.
    private func raw(_ frame: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let connection = try RawConnection(path: daemon.socketPath)
        connection.send(frame: frame)
        let (frames, _) = connection.receive(frames: 1)
        return try XCTUnwrap(frames.first, "no reply to \(frame)", file: file, line: line)
    }

    private func ctl(_ arguments: String...) throws -> Command {
        try Command.run(Products.appstatectl.path, arguments, environment: ["APPSTATE_SOCKET": daemon.socketPath, "NO_COLOR": "1"])
    }

    func testPresentAndDismiss_overRawVarlink_thenTheTreeMarksItAndTheCurrentPathGoesThroughIt() throws {
        let client = try VarlinkClient(path: daemon.socketPath)

        let presented = try raw(#"{"method":"io.appstate.Present","parameters":{"id":"screensaver"}}"#)
        XCTAssertEqual((presented["parameters"] as? [String: Any])?["path"] as? String, "session/screensaver")
        let root = try XCTUnwrap(try client.call(method: GetTree.name)["root"])
        XCTAssertEqual(root["children"]?.arrayValue?.map { $0["path"] }, ["session/attract", "session/shop", "session/screensaver"])
        XCTAssertEqual(root["children"]?[2]?["presented"], true)
        XCTAssertNil(root["children"]?[0]?["presented"])
        XCTAssertEqual(root["onScreen"], false, "full screen takes the attract loop off screen")
        XCTAssertEqual(try client.call(method: GetCurrent.name)["path"], "session/screensaver/night")

        let dismissed = try raw(#"{"method":"io.appstate.Dismiss"}"#)
        let reply = dismissed["parameters"] as? [String: Any]
        XCTAssertEqual(reply?["changed"] as? Bool, true)
        XCTAssertEqual(reply?["path"] as? String, Self.attract)
        XCTAssertEqual(try client.call(method: GetCurrent.name)["path"], .string(Self.attract))
        XCTAssertEqual(try client.call(method: GetTree.name)["root"]?["onScreen"], true)
        let again = try raw(#"{"method":"io.appstate.Dismiss"}"#)
        XCTAssertEqual((again["parameters"] as? [String: Any])?["changed"] as? Bool, false)
    }

    func testPresent_whenTheIdentifierIsUnknownOrSomethingIsPresented_thenDeclaredErrors() throws {
        let unknown = try raw(#"{"method":"io.appstate.Present","parameters":{"id":"attract"}}"#)
        XCTAssertEqual(unknown["error"] as? String, "io.appstate.NoSuchPresentation")
        XCTAssertEqual(unknown["parameters"] as? [String: String], ["tree": "kiosk", "id": "attract"])

        _ = try raw(#"{"method":"io.appstate.Present","parameters":{"id":"screensaver","style":"overFullScreen"}}"#)
        let twice = try raw(#"{"method":"io.appstate.Present","parameters":{"id":"screensaver"}}"#)
        XCTAssertEqual(twice["error"] as? String, "io.appstate.AlreadyPresenting")
        XCTAssertEqual(twice["parameters"] as? [String: String], ["path": "session", "presented": "session/screensaver"])

        let badStyle = try raw(#"{"method":"io.appstate.Present","parameters":{"id":"screensaver","style":"sheet"}}"#)
        XCTAssertEqual(badStyle["error"] as? String, "org.varlink.service.InvalidParameter")
    }

    func testWatch_whenPresentedAndDismissed_thenEachEventCarriesItsChange() throws {
        let watcher = try VarlinkClient(path: daemon.socketPath)
        var stream = try watcher.stream(method: Watch.name)
        XCTAssertNil(try XCTUnwrap(stream.next())["event"])
        let client = try VarlinkClient(path: daemon.socketPath)

        _ = try client.call(method: Present.name, parameters: ["id": "screensaver", "style": "overFullScreen"])
        let presented = try XCTUnwrap(stream.next())
        XCTAssertEqual(presented["event"]?["name"], "Present")
        XCTAssertEqual(presented["event"]?["path"], "session")
        XCTAssertEqual(presented["event"]?["current"], "session/screensaver/night")
        XCTAssertEqual(presented["changed"]?[0]?["path"], "session")
        XCTAssertEqual(presented["changed"]?[0]?["children"]?[2]?["presented"], true)

        _ = try client.call(method: Dismiss.name)
        let dismissed = try XCTUnwrap(stream.next())
        XCTAssertEqual(dismissed["event"]?["name"], "Dismiss")
        XCTAssertEqual(dismissed["event"]?["current"], .string(Self.attract))
        XCTAssertEqual(dismissed["removed"]?.arrayValue?.contains("session/screensaver"), true)
    }

    func testKill9_whilePresented_thenTheRestartedDaemonPresentsItAgainWithItsState() throws {
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: Present.name, parameters: ["id": "screensaver", "style": "overFullScreen"])
        _ = try client.call(method: SetPage.name, parameters: ["path": "session/screensaver", "id": "logo"])
        daemon.kill9()

        try daemon.restart()
        let restarted = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try restarted.call(method: GetCurrent.name)["path"], "session/screensaver/logo")
        let root = try XCTUnwrap(try restarted.call(method: GetTree.name)["root"])
        XCTAssertEqual(root["children"]?[2]?["presented"], true)
        XCTAssertEqual(root["onScreen"], true, "presented over full screen again")
        XCTAssertEqual(try restarted.call(method: Dismiss.name)["changed"], true)
    }

    func testKill9_whenThePresentationIsNotRestorable_thenTheRestartedDaemonPresentsNothing() throws {
        XCTAssertEqual(daemon.stop(), 0)
        let directory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notice.yaml")
        try """
        trees:
          - name: main
            root: { type: Controller, id: main }
            presentations:
              - { type: Controller, id: notice, restorationId: null }
              - { type: Controller, id: saved }
        """.write(to: file, atomically: true, encoding: .utf8)
        daemon = try DaemonProcess(arguments: ["--tree-file", file.path])
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: Present.name, parameters: ["id": "saved"])
        _ = try client.call(method: Dismiss.name)
        _ = try client.call(method: Present.name, parameters: ["id": "notice"])
        daemon.kill9()

        try daemon.restart()
        let restarted = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try restarted.call(method: GetCurrent.name)["path"], "main")
        XCTAssertEqual(try restarted.call(method: GetTree.name)["root"]?["children"], [])
    }

    func testCtl_presentTreeAndDismiss_thenPrintsPathsMarksThePresentedControllerAndSaysWhatFailed() throws {
        let present = try ctl("present", "screensaver")
        XCTAssertEqual(present.status, 0, present.stderr)
        XCTAssertEqual(present.stdout, "session/screensaver\n")

        let twice = try ctl("present", "screensaver", "--over")
        XCTAssertEqual(twice.status, 1)
        XCTAssertEqual(twice.stderr, "appstatectl: session already presents session/screensaver (dismiss it first)\n")

        let tree = try ctl("tree")
        XCTAssertTrue(
            tree.stdout.contains(
                "└── screensaver PaginatedController \"Screensaver\" 1080×1920+0+0, index 0 of 2, url http://127.0.0.1:8080/screensaver.html ▲ presented\n"
            ), tree.stdout)
        XCTAssertTrue(tree.stdout.hasPrefix("session LoginStateController \"Kiosk\" off screen"), tree.stdout)
        let svg = try ctl("tree", "--svg")
        XCTAssertTrue(svg.stdout.contains(#"data-path="session/screensaver" data-type="PaginatedController" data-presented="true""#), svg.stdout)
        XCTAssertTrue(svg.stdout.contains(#"data-current-path="session/screensaver/night""#), svg.stdout)

        let dismiss = try ctl("dismiss")
        XCTAssertEqual([dismiss.stdout, dismiss.stderr], [Self.attract + "\n", ""])
        let nothing = try ctl("dismiss")
        XCTAssertEqual([nothing.stdout, nothing.stderr], [Self.attract + "\n", "appstatectl: nothing was presented\n"])
        XCTAssertEqual(nothing.status, 0)

        let over = try ctl("present", "screensaver", "--over", "--json")
        XCTAssertEqual(over.stdout, #"{"path":"session/screensaver"}"# + "\n")
        XCTAssertEqual(try ctl("dismiss", "--json").stdout, #"{"changed":true,"path":"\#(Self.attract)"}"# + "\n")
        let unknown = try ctl("present", "nope")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr, "appstatectl: the tree kiosk has no presentation named nope (its tree file lists them under presentations)\n")
    }

    func testCtl_help_thenPresentAndDismissAreListedWithExamples() throws {
        let help = try ctl("--help")
        XCTAssertTrue(help.stdout.contains("present"), help.stdout)
        XCTAssertTrue(help.stdout.contains("dismiss"), help.stdout)
        XCTAssertTrue(try ctl("present", "--help").stdout.contains("$ appstatectl present screensaver"))
        XCTAssertTrue(try ctl("dismiss", "--help").stdout.contains("$ appstatectl dismiss"))
    }
}
