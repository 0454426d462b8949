import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `appstated --follow-logind` against python-dbusmock's logind template on a private bus
/// standing in for the system bus: the login container follows the seat's active session,
/// its class and its lock, through the real sd-bus client.
final class FollowLogindTests: AppStateTestCase {
    /// A daemon following seat0 of a mocked logind that already has the seat.
    private func start(arguments: [String] = ["--follow-logind"]) throws -> (FollowedDaemon, BusMock) {
        var logind: BusMock?
        let daemon = try FollowedDaemon(arguments: arguments) { buses in
            logind = try BusMock(.logind, on: buses.system)
            try logind?.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSeat", "seat0")
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        return (daemon, try XCTUnwrap(logind))
    }

    func testFollowLogind_whenAUserSessionBecomesActive_thenTheUserIsLoggedIn() throws {
        let (daemon, logind) = try start()
        XCTAssertEqual(try daemon.waitForFollower("logind seat0", connected: true)["detail"], "following seat0: logged out")
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        XCTAssertEqual(try daemon.root()?["current"], "home")
        XCTAssertEqual(try daemon.waitForFollower("logind seat0", connected: true)["detail"], "following seat0: ada")
    }

    func testFollowLogind_whenAnotherUsersSessionBecomesActive_thenUsersAreSwitched() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        try logind.addSession("c2", user: "bob", uid: 1001)
        try daemon.waitForSession(user: "bob")
        // Back to ada's session, which logind already told of: no new read needed.
        try logind.activate("c1")
        try daemon.waitForSession(user: "ada")
    }

    func testFollowLogind_whenTheActiveSessionIsAGreeter_thenNobodyIsLoggedIn() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "gdm", uid: 120)
        try daemon.waitForSession(user: "gdm")
        try logind.set(BusMock.session("c1"), "org.freedesktop.login1.Session", "Class", "<'greeter'>")
        try daemon.waitForSession(user: nil)
        try logind.addSession("c2", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        try logind.set(BusMock.session("c2"), "org.freedesktop.login1.Session", "Class", "<'lock-screen'>")
        try daemon.waitForSession(user: nil)
    }

    func testFollowLogind_whenLockedHintIsSet_thenTheSessionIsLockedAndUnlocked() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        try logind.gdbus(BusMock.session("c1"), "org.freedesktop.login1.Session.SetLockedHint", "true")
        try daemon.waitForSession(user: "ada", locked: true)
        XCTAssertEqual(try daemon.root()?["current"], "login", "without a locked child the logged-out child is the lock screen")
        try logind.gdbus(BusMock.session("c1"), "org.freedesktop.login1.Session.SetLockedHint", "false")
        try daemon.waitForSession(user: "ada")
    }

    func testFollowLogind_whenOnlyTheLockSignalIsSent_thenTheSessionLocksAtOnce() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        // The template's Lock and Unlock emit the signals and leave LockedHint false, as
        // swaylock's logind integration does.
        try logind.gdbus(BusMock.session("c1"), "org.freedesktop.login1.Session.Lock")
        try daemon.waitForSession(user: "ada", locked: true)
        try logind.gdbus(BusMock.session("c1"), "org.freedesktop.login1.Session.Unlock")
        try daemon.waitForSession(user: "ada")
    }

    func testFollowLogind_whenUnlocked_thenTheLoggedInScreenKeepsItsState() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        _ = try daemon.client().call(method: SetPage.name, parameters: ["id": "settings"])
        try logind.gdbus(BusMock.session("c1"), "org.freedesktop.login1.Session.SetLockedHint", "true")
        try daemon.waitForSession(user: "ada", locked: true)
        try logind.gdbus(BusMock.session("c1"), "org.freedesktop.login1.Session.SetLockedHint", "false")
        try daemon.waitForSession(user: "ada")
        XCTAssertEqual(try daemon.client().call(method: GetCurrent.name)["path"], "session/home/pages/settings")
    }

    func testFollowLogind_whenTheSeatHasNoActiveSession_thenTheUserIsLoggedOut() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        try logind.activate(nil)
        try daemon.waitForSession(user: nil)
        // The session ended too: SessionRemoved, which the template does not send itself.
        try logind.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.RemoveObject", BusMock.session("c1"))
        try logind.emit(
            from: BusMock.manager, "org.freedesktop.login1.Manager", "SessionRemoved", signature: "so",
            "[<'c1'>, <objectpath '\(BusMock.session("c1"))'>]")
        try logind.addSession("c2", user: "bob", uid: 1001)
        try daemon.waitForSession(user: "bob")
    }

    func testFollowLogind_whenAClientChangesTheSession_thenLogindOwnsItAndNothingChanges() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        let client = try daemon.client()
        for (method, parameters) in [
            (Login.name, ["user": JSONValue.string("mallory"), "switch": true]), (Logout.name, [:]),
            (Lock.name, [:]), (Unlock.name, ["tree": "default"]),
            (Post.name, ["name": "session.didLogIn", "userInfo": ["user": "mallory"]]),
        ] {
            XCTAssertThrowsError(try client.call(method: method, parameters: parameters), method) { error in
                XCTAssertEqual(error as? VarlinkError, .sessionOwnedByLogind(tree: "default", seat: "seat0"), method)
            }
        }
        XCTAssertEqual(try daemon.root()?["user"], "ada")
        XCTAssertEqual(try daemon.root()?["locked"], false)
        let ctl = try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath, "logout"])
        XCTAssertEqual(ctl.status, 1)
        XCTAssertTrue(ctl.stderr.contains("follows logind on seat0"), ctl.stderr)
    }

    func testAppstated_whenTheSeatOrKeyboardHeightIsInvalid_thenRefusesToStart() throws {
        for arguments in [
            ["--follow-logind", "--seat", "seat/0"], ["--follow-logind", "--seat", "0"], ["--follow-osk", "--osk-height", "0"],
            ["--follow-osk", "--osk-height", "nan"],
        ] {
            let result = try Command.run(Products.appstated.path, ["--socket", "/nonexistent/io.appstate"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
    }

    func testFollowLogind_whenATreeFileNamesTheSeat_thenThatTreeFollowsIt() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trees.yaml")
        try """
        trees:
          - name: kiosk
            logindSeat: seat1
            root:
              type: LoginStateController
              id: session
              children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
          - name: other
            root:
              type: LoginStateController
              id: session
              children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
        """.write(to: file, atomically: true, encoding: .utf8)
        var logind: BusMock?
        let daemon = try FollowedDaemon(arguments: ["--tree-file", file.path]) { buses in
            logind = try BusMock(.logind, on: buses.system)
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        try XCTUnwrap(logind).gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSession", "c1", "seat1", "1000", "ada", "true")
        try daemon.waitForRoot("ada on seat1") { $0?["user"] == "ada" }
        // Only the tree that names the seat follows it; the other still takes clients' calls.
        XCTAssertEqual(try daemon.client().call(method: Login.name, parameters: ["tree": "other", "user": "bob"])["path"], "session/home")
        XCTAssertEqual(try daemon.followers().map { $0["name"] }, ["logind seat1", "logind idle inhibitor"])
    }

    func testFollowLogind_whenTheBusIsGoneAtStartAndComesBack_thenTheDaemonRunsAndThenFollows() throws {
        let daemon = try FollowedDaemon(arguments: ["--follow-logind"], startBuses: false)
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        let follower = try daemon.waitForFollower("logind seat0", connected: false)
        XCTAssertTrue(follower["detail"]?.stringValue?.contains("cannot connect to the system bus") == true, follower.jsonText)
        XCTAssertEqual(try daemon.root()?["current"], "login", "the daemon answers without logind")
        // Long enough for several tries (after 0.1, 0.3, 0.7 and 1.5 s): still one line for
        // each follower of the system bus, the seat's and the idle inhibitor's.
        Thread.sleep(forTimeInterval: 1.6)
        let log = daemon.daemon.stderrText
        for follower in ["logind seat0", "logind idle inhibitor"] {
            XCTAssertEqual(
                log.components(separatedBy: "\(follower) disconnected: cannot connect to the system bus").count - 1, 1,
                "one line however many tries: \(log)")
        }
        try daemon.systemBus.start()
        let logind = try BusMock(.logind, on: daemon.systemBus)
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        XCTAssertEqual(try daemon.waitForFollower("logind seat0", connected: true)["connected"], true)
    }

    func testFollowLogind_whenTheBusGoesAwayAndComesBack_thenTheStateIsReadAgain() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        daemon.systemBus.stop()
        logind.stop()
        _ = try daemon.waitForFollower("logind seat0", connected: false)
        XCTAssertEqual(try daemon.root()?["user"], "ada", "what logind said last stands while it cannot be asked")
        try daemon.systemBus.start()
        try logind.start()
        // A fresh logind whose seat has no active session: no signal says so, only a new read.
        try logind.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSeat", "seat0")
        try daemon.waitForSession(user: nil)
        XCTAssertEqual(try daemon.waitForFollower("logind seat0", connected: true)["detail"], "following seat0: logged out")
    }

    func testFollowLogind_whenLogindRestarts_thenTheStateIsReadAgain() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        logind.stop()
        let gone = try daemon.waitForFollower("logind seat0", connected: false)
        XCTAssertEqual(gone["detail"], "org.freedesktop.login1 left the system bus; waiting for it")
        XCTAssertEqual(try daemon.root()?["user"], "ada", "logind restarting ends no session")
        try logind.start()
        // The new logind's seat has no active session and no signal says so: only reading
        // the state again finds out.
        try logind.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSeat", "seat0")
        try daemon.waitForSession(user: nil)
        XCTAssertEqual(try daemon.waitForFollower("logind seat0", connected: true)["detail"], "following seat0: logged out")
        try logind.addSession("c9", user: "bob", uid: 1001)
        try daemon.waitForSession(user: "bob")
    }

    func testFollowLogind_whenTheBusSendsHostileInput_thenItIsIgnoredAndTheDaemonKeepsAnswering() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        let session = BusMock.session("c1")
        // Signals that are not logind's: any peer may send them with logind's paths.
        try logind.emitAsStranger(from: session, "org.freedesktop.login1.Session.Lock")
        try logind.emitAsStranger(
            from: BusMock.seat0, "org.freedesktop.DBus.Properties.PropertiesChanged",
            "org.freedesktop.login1.Seat", "{'ActiveSession': <('c6', objectpath '/org/freedesktop/login1/session/c6')>}", "@as []")
        // logind's own, with the wrong types, unknown sessions and wrong shapes.
        try logind.emit(
            from: BusMock.seat0, "org.freedesktop.DBus.Properties", "PropertiesChanged", signature: "sa{sv}as",
            "[<'org.freedesktop.login1.Seat'>, <{'ActiveSession': <'garbage'>}>, <@as []>]")
        try logind.emit(
            from: session, "org.freedesktop.DBus.Properties", "PropertiesChanged", signature: "sa{sv}as",
            "[<'org.freedesktop.login1.Session'>, <{'LockedHint': <'yes'>, 'Name': <42>}>, <@as []>]")
        try logind.emit(from: BusMock.manager, "org.freedesktop.login1.Manager", "SessionNew", signature: "u", "[<uint32 7>]")
        try logind.emit(from: BusMock.manager, "org.freedesktop.login1.Manager", "SessionRemoved", signature: "ss", "[<'c1'>, <'c1'>]")
        // A Lock of an object that is no session logind told of.
        try logind.emit(from: BusMock.manager, "org.freedesktop.login1.Session", "Lock", signature: "", "@av []")
        try logind.emit(from: session, "org.freedesktop.DBus.Properties", "PropertiesChanged", signature: "s", "[<'x'>]")
        // A later change that logind really made still arrives, after all of the above.
        try logind.addSession("c2", user: "bob", uid: 1001)
        try daemon.waitForSession(user: "bob")
        try logind.activate("c1")
        try daemon.waitForSession(user: "ada")
        XCTAssertTrue(try daemon.waitForFollower("logind seat0", connected: true)["connected"] == true)
    }

    func testFollowLogind_whenLogindFloodsSignals_thenTheDaemonKeepsAnsweringAndEndsInTheLastState() throws {
        let (daemon, logind) = try start()
        try logind.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        // 5,000 Lock/Unlock signals from logind's own connection, ending with Unlock, sent
        // by one method of the mock so that they arrive as fast as the bus carries them.
        try logind.gdbus(
            BusMock.manager, "org.freedesktop.DBus.Mock.AddMethod", "org.freedesktop.login1.Manager", "Flood", "u", "",
            """
            for i in range(args[0]): objects['\(BusMock.session("c1"))'].EmitSignal('org.freedesktop.login1.Session', 'Lock' if i % 2 == 0 else 'Unlock', '', [])
            """)
        let started = Date()
        try logind.gdbus(BusMock.manager, "org.freedesktop.login1.Manager.Flood", "5000")
        XCTAssertEqual(try daemon.client().call(method: GetCurrent.name)["path"]?.stringValue?.hasPrefix("session/"), true)
        try daemon.waitForSession(user: "ada", locked: false)
        // And it still follows: a lock after the flood locks.
        try logind.gdbus(BusMock.session("c1"), "org.freedesktop.login1.Session.SetLockedHint", "true")
        try daemon.waitForSession(user: "ada", locked: true)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    }

    func testFollowLogind_whenTheSeatComesAndGoes_thenTheTreeFollowsItAndIsLoggedOutWithoutIt() throws {
        let (daemon, logind) = try start(arguments: ["--follow-logind", "--seat", "seat1"])
        XCTAssertEqual(try daemon.waitForFollower("logind seat1", connected: false)["detail"], "logind has no seat1; waiting for it")
        let seat1 = "/org/freedesktop/login1/seat/seat1"
        try logind.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSeat", "seat1")
        try logind.emit(from: BusMock.manager, "org.freedesktop.login1.Manager", "SeatNew", signature: "so", "[<'seat1'>, <objectpath '\(seat1)'>]")
        XCTAssertEqual(try daemon.waitForFollower("logind seat1", connected: true)["detail"], "following seat1: logged out")
        try logind.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSession", "c1", "seat1", "1000", "ada", "true")
        try daemon.waitForSession(user: "ada")
        // The seat is unplugged: its sessions end with it.
        try logind.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.RemoveObject", seat1)
        try logind.emit(
            from: BusMock.manager, "org.freedesktop.login1.Manager", "SeatRemoved", signature: "so", "[<'seat1'>, <objectpath '\(seat1)'>]")
        try daemon.waitForSession(user: nil)
        XCTAssertEqual(try daemon.waitForFollower("logind seat1", connected: false)["detail"], "seat1 was removed; waiting for it")
        // Another seat's comings and goings change nothing.
        try logind.emit(
            from: BusMock.manager, "org.freedesktop.login1.Manager", "SeatRemoved", signature: "so", "[<'seat0'>, <objectpath '\(BusMock.seat0)'>]")
        XCTAssertEqual(try daemon.waitForFollower("logind seat1", connected: false)["detail"], "seat1 was removed; waiting for it")
    }

    func testFollowLogind_whenSIGHUPReadsATreeFileThatNamesAnotherSeat_thenTheTreeFollowsThatSeat() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trees.yaml")
        func write(seat: String) throws {
            try """
            trees:
              - name: kiosk
                logindSeat: \(seat)
                root:
                  type: LoginStateController
                  id: session
                  children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
            """.write(to: file, atomically: true, encoding: .utf8)
        }
        try write(seat: "seat0")
        var logind: BusMock?
        let daemon = try FollowedDaemon(arguments: ["--tree-file", file.path]) { buses in
            logind = try BusMock(.logind, on: buses.system)
            try logind?.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSession", "c0", "seat0", "1000", "ada", "true")
            try logind?.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSession", "c1", "seat1", "1001", "bob", "true")
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        try daemon.waitForSession(user: "ada")
        try write(seat: "seat1")
        daemon.daemon.signal(SIGHUP)
        try daemon.waitForSession(user: "bob")
        XCTAssertEqual(try daemon.followers().map { $0["name"] }, ["logind seat1", "logind idle inhibitor"], "seat0's follower stopped")
        XCTAssertThrowsError(try daemon.client().call(method: Logout.name)) { error in
            XCTAssertEqual(error as? VarlinkError, .sessionOwnedByLogind(tree: "kiosk", seat: "seat1"))
        }
        // A file that follows no seat: the session is the clients' again.
        try """
        trees:
          - name: kiosk
            root:
              type: LoginStateController
              id: session
              children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
        """.write(to: file, atomically: true, encoding: .utf8)
        daemon.daemon.signal(SIGHUP)
        let deadline = Date().addingTimeInterval(15)
        while try !daemon.followers().isEmpty, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try daemon.client().call(method: Logout.name)["changed"], true)
        withExtendedLifetime(logind) {}
    }
}
