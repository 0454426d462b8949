import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `appstated --follow-osk` against a mocked squeekboard (`sm.puri.OSK0` at `/sm/puri/OSK0`
/// with a `Visible` property, from python-dbusmock) on a private bus standing in for the
/// session bus.
final class FollowKeyboardTests: AppStateTestCase {
    private func start(arguments: [String] = ["--follow-osk"]) throws -> (FollowedDaemon, BusMock) {
        var keyboard: BusMock?
        let daemon = try FollowedDaemon(arguments: arguments) { buses in
            keyboard = try BusMock(.keyboard, on: buses.session)
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        return (daemon, try XCTUnwrap(keyboard))
    }

    private func setVisible(_ visible: Bool, on keyboard: BusMock) throws {
        try keyboard.set("/sm/puri/OSK0", "sm.puri.OSK0", "Visible", visible ? "<true>" : "<false>")
    }

    /// The names of the events in `Watch` replies.
    private func eventNames(_ frames: [[String: Any]]) -> [String?] {
        frames.map { (($0["parameters"] as? [String: Any])?["event"] as? [String: Any])?["name"] as? String }
    }

    /// The login screen's keyboard overlap, from the default tree while logged out.
    private func overlap(_ root: JSONValue?) -> JSONValue? {
        guard case .array(let children)? = root?["children"] else { return nil }
        return children.first { $0["identifier"] == "login" }?["keyboardOverlap"]
    }

    func testFollowOSK_whenTheKeyboardBecomesVisible_thenItIsShownWithSqueekboardsHeightAndHiddenAgain() throws {
        let (daemon, keyboard) = try start()
        _ = try daemon.waitForFollower("osk", connected: true)
        let watcher = try RawConnection(path: daemon.daemon.socketPath)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertEqual(watcher.receive(frames: 1).frames.count, 1)
        try setVisible(true, on: keyboard)
        // squeekboard's rule for a window 1280 wide and 800 high: 360 points.
        try daemon.waitForRoot("the keyboard shown") { self.overlap($0) == 360 }
        try setVisible(false, on: keyboard)
        try daemon.waitForRoot("the keyboard hidden") { self.overlap($0) == 0 }
        XCTAssertEqual(eventNames(watcher.receive(frames: 2).frames), ["ShowKeyboard", "HideKeyboard"], "the same events as the methods")
    }

    func testFollowOSK_whenAHeightIsGiven_thenTheKeyboardHasIt() throws {
        let (daemon, keyboard) = try start(arguments: ["--follow-osk", "--osk-height", "300"])
        _ = try daemon.waitForFollower("osk", connected: true)
        try setVisible(true, on: keyboard)
        try daemon.waitForRoot("the keyboard shown") { self.overlap($0) == 300 }
    }

    func testFollowOSK_whenTheKeyboardIsNotOnTheBusAtStart_thenTheDaemonRunsAndFollowsItOnceItComes() throws {
        let daemon = try FollowedDaemon(arguments: ["--follow-osk"])
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        let follower = try daemon.waitForFollower("osk", connected: false)
        XCTAssertEqual(follower["detail"], "sm.puri.OSK0 is not on the session bus; waiting for it")
        let keyboard = try BusMock(.keyboard, on: daemon.sessionBus)
        _ = try daemon.waitForFollower("osk", connected: true)
        try setVisible(true, on: keyboard)
        try daemon.waitForRoot("the keyboard shown") { self.overlap($0) == 360 }
        // The keyboard quits: it is no longer on screen.
        keyboard.stop()
        try daemon.waitForRoot("the keyboard hidden when it quit") { self.overlap($0) == 0 }
        XCTAssertEqual(try daemon.waitForFollower("osk", connected: false)["detail"], "sm.puri.OSK0 left the session bus; waiting for it")
    }

    func testFollowOSK_whenThereIsNoSessionBus_thenTheDaemonStartsAndSaysSoInStatus() throws {
        let daemon = try FollowedDaemon(arguments: ["--follow-osk"], startBuses: false)
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        _ = try daemon.waitForFollower("osk", connected: false)
        let status = try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath, "status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("Following: osk: disconnected (cannot connect to the session bus"), status.stdout)
    }

    func testFollowOSK_whenVisibleHasTheWrongType_thenItIsIgnored() throws {
        let (daemon, keyboard) = try start()
        _ = try daemon.waitForFollower("osk", connected: true)
        let watcher = try RawConnection(path: daemon.daemon.socketPath)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertEqual(watcher.receive(frames: 1).frames.count, 1)
        try keyboard.emit(
            from: "/sm/puri/OSK0", "org.freedesktop.DBus.Properties", "PropertiesChanged", signature: "sa{sv}as",
            "[<'sm.puri.OSK0'>, <{'Visible': <'yes'>}>, <@as []>]")
        try keyboard.emitAsStranger(
            from: "/sm/puri/OSK0", "org.freedesktop.DBus.Properties.PropertiesChanged",
            "sm.puri.OSK0", "{'Visible': <true>}", "@as []")
        // Ordered after the two above on the bus: had either shown the keyboard, this would
        // hide it and the next show it again, three events instead of one.
        try setVisible(false, on: keyboard)
        try setVisible(true, on: keyboard)
        try daemon.waitForRoot("the keyboard shown") { self.overlap($0) == 360 }
        // Every event is on the watcher's socket before the tree that a read sees; a second
        // one would be there too.
        XCTAssertEqual(eventNames(watcher.receive(frames: 3, timeout: 1).frames), ["ShowKeyboard"])
    }
}
