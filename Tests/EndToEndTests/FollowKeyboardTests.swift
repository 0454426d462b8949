import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `appstated --follow-osk` against python-dbusmock's stand-ins for squeekboard (`sm.puri.OSK0`
/// at `/sm/puri/OSK0`, `Visible`), KWin's virtual keyboard (`org.kde.KWin` at
/// `/VirtualKeyboard`, `visible` and its value-less `visibleChanged`) and Onboard
/// (`org.onboard.Onboard` at `/org/onboard/Onboard/Keyboard`, `Visible`) on a private bus
/// standing in for the session bus: each source, the switch between them, and junk.
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
        XCTAssertEqual(follower["detail"], "no on-screen keyboard is on the session bus; waiting for squeekboard, KWin or Onboard")
        let keyboard = try BusMock(.keyboard, on: daemon.sessionBus)
        _ = try daemon.waitForFollower("osk", connected: true)
        try setVisible(true, on: keyboard)
        try daemon.waitForRoot("the keyboard shown") { self.overlap($0) == 360 }
        // The keyboard quits: it is no longer on screen.
        keyboard.stop()
        try daemon.waitForRoot("the keyboard hidden when it quit") { self.overlap($0) == 0 }
        XCTAssertEqual(
            try daemon.waitForFollower("osk", connected: false)["detail"],
            "squeekboard (sm.puri.OSK0) left the session bus; waiting for squeekboard, KWin or Onboard")
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

    /// A daemon with `arguments` and the keyboards `services` mocked before it starts, each
    /// with its properties (nil: its visibility property, false).
    private func start(
        _ arguments: [String], _ services: [(BusMock.Service, [String: String]?)]
    ) throws -> (FollowedDaemon, [BusMock]) {
        var mocks: [BusMock] = []
        let daemon = try FollowedDaemon(arguments: arguments) { buses in
            mocks = try services.map { try BusMock($0.0, on: buses.session, properties: $0.1) }
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        return (daemon, mocks)
    }

    private func detail(_ daemon: FollowedDaemon, connected: Bool = true) throws -> String? {
        try daemon.waitForFollower("osk", connected: connected)["detail"]?.stringValue
    }

    func testFollowOSK_whenKWinSaysVisibleChangedWithoutAValue_thenThePropertyIsReadAgain() throws {
        let (daemon, mocks) = try start(["--follow-osk"], [(.kwin, ["visible": "<false>", "enabled": "<true>"])])
        let kwin = mocks[0]
        // KWin's adaptor sets the property and sends visibleChanged, with no PropertiesChanged.
        try kwin.gdbus(
            "/VirtualKeyboard", "org.freedesktop.DBus.Mock.AddMethod", "org.kde.kwin.VirtualKeyboard", "setVisibleQuietly", "b", "",
            "self.props['org.kde.kwin.VirtualKeyboard']['visible'] = args[0]; self.EmitSignal('org.kde.kwin.VirtualKeyboard', 'visibleChanged', '', [])"
        )
        XCTAssertEqual(try detail(daemon), "KWin: keyboard hidden")
        try kwin.gdbus("/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard.setVisibleQuietly", "true")
        try daemon.waitForRoot("KWin's keyboard shown") { self.overlap($0) == 360 }
        XCTAssertEqual(try detail(daemon), "KWin: keyboard shown")
        // A stranger's visibleChanged makes the follower read nothing new.
        try kwin.emitAsStranger(from: "/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard.visibleChanged")
        try kwin.gdbus("/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard.setVisibleQuietly", "false")
        try daemon.waitForRoot("KWin's keyboard hidden") { self.overlap($0) == 0 }
    }

    func testFollowOSK_whenOnboardChangesVisible_thenTheKeyboardFollows() throws {
        let (daemon, mocks) = try start(["--follow-osk"], [(.onboard, nil)])
        XCTAssertEqual(try detail(daemon), "Onboard: keyboard hidden")
        try mocks[0].setVisible(true)
        try daemon.waitForRoot("Onboard shown") { self.overlap($0) == 360 }
        try mocks[0].setVisible(false)
        try daemon.waitForRoot("Onboard hidden") { self.overlap($0) == 0 }
    }

    func testFollowOSK_whenKeyboardsComeAndGo_thenItFollowsTheOneThatCameAndFallsBackToOneThatIsThere() throws {
        let (daemon, mocks) = try start(["--follow-osk"], [(.keyboard, ["Visible": "<true>"])])
        let squeekboard = mocks[0]
        try daemon.waitForRoot("squeekboard shown") { self.overlap($0) == 360 }
        // Onboard starts: the session now uses it, and it is hidden.
        let onboard = try BusMock(.onboard, on: daemon.sessionBus)
        // dbusmock takes the name before it has the property, as a service may: its first
        // change makes it followed.
        try onboard.setVisible(false)
        try daemon.waitForRoot("Onboard followed, hidden") { self.overlap($0) == 0 }
        XCTAssertEqual(try detail(daemon), "Onboard: keyboard hidden")
        try onboard.setVisible(true)
        try daemon.waitForRoot("Onboard shown") { self.overlap($0) == 360 }
        // squeekboard's changes do not count while Onboard is followed.
        try squeekboard.setVisible(false)
        try onboard.setVisible(false)
        try daemon.waitForRoot("Onboard hidden") { self.overlap($0) == 0 }
        try squeekboard.setVisible(true)
        // Onboard quits: squeekboard, still there, is followed again, and it is shown.
        onboard.stop()
        try daemon.waitForRoot("squeekboard followed again") { self.overlap($0) == 360 }
        XCTAssertEqual(try detail(daemon), "squeekboard: keyboard shown")
        squeekboard.stop()
        try daemon.waitForRoot("no keyboard left") { self.overlap($0) == 0 }
        XCTAssertEqual(
            try detail(daemon, connected: false), "squeekboard (sm.puri.OSK0) left the session bus; waiting for squeekboard, KWin or Onboard")
    }

    func testFollowOSK_whenAKeyboardAppearsBeforeItsObjectIsReady_thenItIsFollowedOnceItIs() throws {
        let (daemon, mocks) = try start(["--follow-osk"], [(.kwin, ["visible": "<false>"])])
        XCTAssertEqual(try detail(daemon), "KWin: keyboard hidden")
        // dbusmock takes Onboard's name before its property is there, and adding the property
        // sends no signal: the newcomer is tried again until it answers.
        let onboard = try BusMock(.onboard, on: daemon.sessionBus, properties: ["Visible": "<true>"])
        try daemon.waitForRoot("Onboard shown") { self.overlap($0) == 360 }
        XCTAssertEqual(try detail(daemon), "Onboard: keyboard shown")
        withExtendedLifetime((mocks, onboard)) {}
    }

    func testFollowOSK_whenSeveralKeyboardsAreThereAtStart_thenTheOneShownIsFollowed() throws {
        let (daemon, mocks) = try start(["--follow-osk"], [(.kwin, ["visible": "<false>"]), (.onboard, ["Visible": "<true>"])])
        try daemon.waitForRoot("Onboard shown") { self.overlap($0) == 360 }
        XCTAssertEqual(try detail(daemon), "Onboard: keyboard shown")
        withExtendedLifetime(mocks) {}
    }

    func testFollowOSK_whenTheSourceIsPinned_thenOnlyThatKeyboardIsFollowed() throws {
        let (daemon, mocks) = try start(["--follow-osk", "--osk-source", "onboard"], [(.keyboard, ["Visible": "<true>"])])
        XCTAssertEqual(try detail(daemon, connected: false), "org.onboard.Onboard is not on the session bus; waiting for it")
        XCTAssertEqual(overlap(try daemon.root()), 0, "squeekboard is not followed")
        let onboard = try BusMock(.onboard, on: daemon.sessionBus, properties: ["Visible": "<true>"])
        try daemon.waitForRoot("Onboard shown") { self.overlap($0) == 360 }
        withExtendedLifetime((onboard, mocks)) {}
        let refused = try Command.run(Products.appstated.path, ["--socket", "/nonexistent/io.appstate", "--follow-osk", "--osk-source", "maliit"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
    }

    func testFollowOSK_whenAnOlderKWinHasNoVisible_thenItIsPassedOverForAKeyboardThatHasIt() throws {
        let (daemon, mocks) = try start(["--follow-osk"], [(.kwin, ["enabled": "<true>", "active": "<true>"])])
        XCTAssertEqual(
            try detail(daemon, connected: false),
            "no usable on-screen keyboard is on the session bus; waiting for squeekboard, KWin or Onboard; KWin is passed over: "
                + "org.kde.KWin has no boolean org.kde.kwin.VirtualKeyboard.visible at /VirtualKeyboard")
        let onboard = try BusMock(.onboard, on: daemon.sessionBus, properties: ["Visible": "<true>"])
        try daemon.waitForRoot("Onboard shown") { self.overlap($0) == 360 }
        withExtendedLifetime((onboard, mocks)) {}
    }

    func testFollowOSK_whenKeyboardsSendJunk_thenItChangesNothing() throws {
        // Onboard's Visible is a string: passed over, as KWin's wrong-typed changes are ignored.
        let (daemon, mocks) = try start(
            ["--follow-osk"], [(.onboard, ["Visible": "<'yes'>"]), (.kwin, ["visible": "<false>", "enabled": "<true>"])])
        let kwin = mocks[1]
        XCTAssertEqual(try detail(daemon), "KWin: keyboard hidden")
        let watcher = try RawConnection(path: daemon.daemon.socketPath)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertEqual(watcher.receive(frames: 1).frames.count, 1)
        try kwin.emit(
            from: "/VirtualKeyboard", "org.freedesktop.DBus.Properties", "PropertiesChanged", signature: "sa{sv}as",
            "[<'org.kde.kwin.VirtualKeyboard'>, <{'visible': <uint32 1>}>, <@as []>]")
        try kwin.emit(from: "/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard", "visibleChanged", signature: "s", "[<'junk'>]")
        try mocks[0].emitAsStranger(
            from: "/org/onboard/Onboard/Keyboard", "org.freedesktop.DBus.Properties.PropertiesChanged", "org.onboard.Onboard.Keyboard",
            "{'Visible': <true>}", "@as []")
        // Ordered after the junk on the bus: had any of it shown the keyboard, this would hide
        // it and the next show it again, three events instead of one.
        try kwin.setVisible(false)
        try kwin.setVisible(true)
        try daemon.waitForRoot("KWin's keyboard shown") { self.overlap($0) == 360 }
        XCTAssertEqual(eventNames(watcher.receive(frames: 3, timeout: 1).frames), ["ShowKeyboard"])
    }

    func testFollowOSK_whenAKeyboardNeverAnswers_thenItIsPassedOverAndTheDaemonKeepsAnswering() throws {
        var onboard: BusMock?
        let silent = Process()
        let daemon = try FollowedDaemon(arguments: ["--follow-osk"]) { buses in
            // A KWin that takes its name and never reads a call: the follower's calls time out.
            silent.executableURL = URL(fileURLWithPath: BusMock.python)
            silent.arguments = ["-c", "import dbus, time; dbus.SessionBus().request_name('org.kde.KWin'); time.sleep(600)"]
            silent.environment = ["DBUS_SESSION_BUS_ADDRESS": buses.session.address]
            try silent.runAsTestChild()
            let deadline = Date().addingTimeInterval(15)
            while try Command.run(
                try resolveExecutable("gdbus"),
                [
                    "call", "--session", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus", "-m", "org.freedesktop.DBus.NameHasOwner",
                    "org.kde.KWin",
                ],
                environment: ["DBUS_SESSION_BUS_ADDRESS": buses.session.address]
            ).stdout.contains("false") {
                guard Date() < deadline else { throw TestFailure("the silent KWin did not take its name") }
                usleep(20_000)
            }
            onboard = try BusMock(.onboard, on: buses.session, properties: ["Visible": "<true>"])
        }
        addTeardownBlock {
            silent.terminate()
            silent.waitUntilExit()
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        // The follower waits for KWin on its own thread; the daemon answers meanwhile.
        XCTAssertEqual(try daemon.root()?["current"], "login")
        try daemon.waitForRoot("Onboard shown after KWin was passed over") { self.overlap($0) == 360 }
        XCTAssertEqual(try detail(daemon), "Onboard: keyboard shown")
        withExtendedLifetime(onboard) {}
    }
}
