import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `RequestKeyboard` and `appstatectl keyboard request` against python-dbusmock's stand-ins
/// for squeekboard, KWin's virtual keyboard and Onboard on a private session bus (as in
/// `FollowKeyboardTests`): the daemon asks the followed keyboard with its own call, answers
/// once it has, and the keyboard's report of what it did moves the tree through the follower.
final class RequestKeyboardEndToEndTests: AppStateTestCase {
    /// A daemon with `--follow-osk` and `service` mocked before it starts, followed once the
    /// test begins.
    private func start(_ service: BusMock.Service, properties: [String: String]? = nil) throws -> (FollowedDaemon, BusMock) {
        var keyboard: BusMock?
        let daemon = try FollowedDaemon(arguments: ["--follow-osk"]) { buses in
            keyboard = try BusMock(service, on: buses.session, properties: properties)
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        _ = try daemon.waitForFollower("osk", connected: true)
        return (daemon, try XCTUnwrap(keyboard))
    }

    private func request(_ visibility: String, of daemon: FollowedDaemon) throws -> Command {
        try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath, "keyboard", "request", visibility])
    }

    /// Asserts that `appstatectl` succeeded silently.
    private func assertSucceeded(_ command: Command, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(command.status, 0, command.stderr, file: file, line: line)
        XCTAssertEqual(command.stdout + command.stderr, "", file: file, line: line)
    }

    /// The login screen's keyboard overlap, from the default tree while logged out.
    private func overlap(_ root: JSONValue?) -> JSONValue? {
        guard case .array(let children)? = root?["children"] else { return nil }
        return children.first { $0["identifier"] == "login" }?["keyboardOverlap"]
    }

    func testRequest_whenSqueekboardIsFollowed_thenItIsAskedWithSetVisibleAndItsReportMovesTheTree() throws {
        let (daemon, squeekboard) = try start(.keyboard)
        // squeekboard's SetVisible sets its Visible property, which it signals.
        try squeekboard.addMethod("sm.puri.OSK0", "SetVisible", signature: "b", code: "self.Set('sm.puri.OSK0', 'Visible', args[0])")
        let watcher = try RawConnection(path: daemon.daemon.socketPath)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertEqual(watcher.receive(frames: 1).frames.count, 1)

        assertSucceeded(try request("show", of: daemon))
        XCTAssertEqual(try squeekboard.calls(of: "SetVisible"), ["<true>"], "asked, and answered, before appstatectl returned")
        try daemon.waitForRoot("the keyboard shown as squeekboard reports it") { self.overlap($0) == 360 }
        assertSucceeded(try request("hide", of: daemon))
        XCTAssertEqual(try squeekboard.calls(of: "SetVisible"), ["<true>", "<false>"])
        try daemon.waitForRoot("the keyboard hidden as squeekboard reports it") { self.overlap($0) == 0 }
        let events = watcher.receive(frames: 2).frames.map { (($0["parameters"] as? [String: Any])?["event"] as? [String: Any])?["name"] as? String }
        XCTAssertEqual(events, ["ShowKeyboard", "HideKeyboard"], "the follower's changes; the requests themselves change nothing")
    }

    func testRequest_whenCalledOverRawVarlink_thenAnsweredWithAnEmptyReplyOnceTheKeyboardAnswered() throws {
        let (daemon, squeekboard) = try start(.keyboard)
        try squeekboard.addMethod("sm.puri.OSK0", "SetVisible", signature: "b")
        let connection = try RawConnection(path: daemon.daemon.socketPath)
        connection.send(frame: #"{"method":"io.appstate.RequestKeyboard","parameters":{"visible":true}}"#)
        connection.send(frame: #"{"method":"io.appstate.RequestKeyboard","parameters":{"tree":"default","visible":false}}"#)
        connection.send(frame: #"{"method":"io.appstate.RequestKeyboard","parameters":{"tree":"nope","visible":false}}"#)
        let replies = connection.receive(frames: 3).frames
        XCTAssertEqual(replies.count, 3, "\(replies)")
        XCTAssertEqual(replies.prefix(2).map { $0["parameters"] as? [String: Any] }.map { $0?.isEmpty }, [true, true], "\(replies)")
        XCTAssertEqual(replies.prefix(2).map { $0["error"] as? String }, [nil, nil])
        XCTAssertEqual(replies.last?["error"] as? String, "io.appstate.NoSuchTree")
        XCTAssertEqual(try squeekboard.calls(of: "SetVisible"), ["<true>", "<false>"], "in the order asked")
    }

    func testRequest_whenKWinIsFollowed_thenItsActivePropertyIsSet() throws {
        let (daemon, kwin) = try start(.kwin, properties: ["visible": "<false>", "active": "<false>", "enabled": "<true>"])
        assertSucceeded(try request("show", of: daemon))
        XCTAssertEqual(try kwin.property("org.kde.kwin.VirtualKeyboard", "active"), "<true>")
        assertSucceeded(try request("hide", of: daemon))
        XCTAssertEqual(try kwin.property("org.kde.kwin.VirtualKeyboard", "active"), "<false>")
    }

    func testRequest_whenOnboardIsFollowed_thenItIsAskedWithShowAndHide() throws {
        let (daemon, onboard) = try start(.onboard)
        let interface = "org.onboard.Onboard.Keyboard"
        try onboard.addMethod(interface, "Show", code: "self.Set('\(interface)', 'Visible', True)")
        try onboard.addMethod(interface, "Hide", code: "self.Set('\(interface)', 'Visible', False)")
        assertSucceeded(try request("show", of: daemon))
        XCTAssertEqual(try onboard.calls(of: "Show"), [""])
        try daemon.waitForRoot("Onboard shown") { self.overlap($0) == 360 }
        assertSucceeded(try request("hide", of: daemon))
        XCTAssertEqual(try onboard.calls(of: "Hide"), [""])
        try daemon.waitForRoot("Onboard hidden") { self.overlap($0) == 0 }
    }

    func testRequest_whenNoKeyboardIsOnTheBus_thenNoKeyboardFollowedSaysWhy() throws {
        let daemon = try FollowedDaemon(arguments: ["--follow-osk"])
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        _ = try daemon.waitForFollower("osk", connected: false)
        let refused = try request("show", of: daemon)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(
            refused.stderr,
            "appstatectl: appstated has no on-screen keyboard to ask: no on-screen keyboard is on the session bus; "
                + "waiting for squeekboard, KWin or Onboard\n")
        let connection = try RawConnection(path: daemon.daemon.socketPath)
        connection.send(frame: #"{"method":"io.appstate.RequestKeyboard","parameters":{"visible":false}}"#)
        let reply = connection.receive(frames: 1).frames.first
        XCTAssertEqual(reply?["error"] as? String, "io.appstate.NoKeyboardFollowed")
        XCTAssertEqual(
            (reply?["parameters"] as? [String: Any])?["reason"] as? String,
            "no on-screen keyboard is on the session bus; waiting for squeekboard, KWin or Onboard")
    }

    func testRequest_whenTheKeyboardFails_thenKeyboardRequestFailedWithItsDBusError() throws {
        let (daemon, squeekboard) = try start(.keyboard)
        // An older squeekboard without SetVisible: the bus answers UnknownMethod.
        let unknown = try request("show", of: daemon)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(
            unknown.stderr.hasPrefix(
                "appstatectl: squeekboard did not do what was asked: sm.puri.OSK0.SetVisible on /sm/puri/OSK0 failed: org.freedesktop.DBus.Error.UnknownMethod"
            ), unknown.stderr)
        try squeekboard.addMethod(
            "sm.puri.OSK0", "SetVisible", signature: "b", code: "raise dbus.exceptions.DBusException('not now', name='sm.puri.OSK0.Error.Busy')")
        let busy = try request("hide", of: daemon)
        XCTAssertEqual(busy.status, 1)
        XCTAssertEqual(
            busy.stderr,
            "appstatectl: squeekboard did not do what was asked: sm.puri.OSK0.SetVisible on /sm/puri/OSK0 failed: sm.puri.OSK0.Error.Busy: not now\n"
        )
        // The daemon and the follower go on.
        XCTAssertEqual(try daemon.waitForFollower("osk", connected: true)["detail"], "squeekboard: keyboard hidden")
    }
}
