import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `appstated --follow-logind` against python-dbusmock's logind template: logind's `IdleHint`
/// moves the trees' idle clocks, and while a client holds an `io.appstate.Inhibit` the daemon
/// holds logind's idle inhibitor in block mode.
final class IdleLogindTests: AppStateTestCase {
    /// The steps of the tree `start` makes: a lock after a second.
    private static let lockAfterASecond = "    idle:\n      - { after: 1, lock: true }"

    /// A daemon following seat0 and ada's session on it, with a tree of these idle steps and
    /// an attract screen its root may present.
    private func start(idle: String = IdleLogindTests.lockAfterASecond) throws -> (FollowedDaemon, BusMock) {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("kiosk.yaml")
        try """
        trees:
          - name: kiosk
            root:
              type: LoginStateController
              id: session
              children: [{ type: Controller, id: welcome }, { type: Controller, id: home }]
            presentations:
              - { type: Controller, id: attract, title: Touch to start }
        \(idle)
        """.write(to: file, atomically: true, encoding: .utf8)
        var logind: BusMock?
        let daemon = try FollowedDaemon(arguments: ["--follow-logind", "--tree-file", file.path]) { buses in
            logind = try BusMock(.logind, on: buses.system)
            try logind?.gdbus(BusMock.manager, "org.freedesktop.DBus.Mock.AddSeat", "seat0")
        }
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        let mock = try XCTUnwrap(logind)
        try mock.addSession("c1", user: "ada", uid: 1000)
        try daemon.waitForSession(user: "ada")
        return (daemon, mock)
    }

    private func idle(_ daemon: FollowedDaemon) throws -> IdleState {
        try XCTUnwrap(try daemon.client().call(GetStats.self, .init()).idle.first)
    }

    /// Polls `GetStats` until `condition` holds of the tree's idle state.
    private func waitForIdle(_ daemon: FollowedDaemon, _ what: String, timeout: TimeInterval, _ condition: (IdleState) -> Bool) throws -> IdleState {
        let deadline = Date().addingTimeInterval(timeout)
        var state = try idle(daemon)
        while !condition(state) {
            guard Date() < deadline else { throw TestFailure("\(what) within \(timeout) s; idle state: \(state)") }
            usleep(20_000)
            state = try idle(daemon)
        }
        return state
    }

    /// logind's inhibitors, as its `ListInhibitors` prints them.
    private func inhibitors(_ logind: BusMock) throws -> String {
        try logind.gdbus(BusMock.manager, "org.freedesktop.login1.Manager.ListInhibitors")
    }

    private static var monotonicMicroseconds: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    func testIdleHint_whenTrueSinceAWhile_thenLogindLocksWithinASecondAndFalseStartsTheClockAgain() throws {
        let (daemon, logind) = try start()
        // Activity just now: logind's word on the session, when it comes, stands over it.
        _ = try daemon.client().call(ReportActivity.self, .init())
        let session = BusMock.session("c1")
        try logind.set(session, "org.freedesktop.login1.Session", "IdleSinceHintMonotonic", "<uint64 \(Self.monotonicMicroseconds - 30_000_000)>")
        let hinted = Date()
        try logind.set(session, "org.freedesktop.login1.Session", "IdleHint", "<true>")
        // The lock step asks logind to lock the session; the template's Lock sends the signal.
        try daemon.waitForSession(user: "ada", locked: true, timeout: 1)
        XCTAssertLessThan(Date().timeIntervalSince(hinted), 1)
        let fired = try idle(daemon)
        XCTAssertEqual(fired.stepsFired, 1)
        XCTAssertGreaterThanOrEqual(fired.idleSeconds, 30, "idle since logind's IdleSinceHint")

        try logind.set(session, "org.freedesktop.login1.Session", "IdleHint", "<false>")
        let active = try waitForIdle(daemon, "activity when IdleHint turns false", timeout: 5) { $0.stepsFired == 0 }
        XCTAssertLessThan(active.idleSeconds, 1)
    }

    /// Whether the tree's root presents the attract screen, as GetTree lists it.
    private static func presentsAttract(_ root: JSONValue?) -> Bool {
        guard case .array(let children)? = root?["children"] else { return false }
        return children.contains { $0["identifier"] == "attract" && $0["presented"] == true }
    }

    func testIdleHint_whenTrue_thenTheAttractScreenWithinASecondAndWhenFalseDismissed() throws {
        let (daemon, logind) = try start(idle: "    idle:\n      - { after: 60, present: attract }")
        let session = BusMock.session("c1")
        try logind.set(session, "org.freedesktop.login1.Session", "IdleSinceHintMonotonic", "<uint64 \(Self.monotonicMicroseconds - 90_000_000)>")
        let hinted = Date()
        try logind.set(session, "org.freedesktop.login1.Session", "IdleHint", "<true>")
        try daemon.waitForRoot("the attract screen after logind's IdleHint", timeout: 1) { Self.presentsAttract($0) }
        XCTAssertLessThan(Date().timeIntervalSince(hinted), 1)
        try logind.set(session, "org.freedesktop.login1.Session", "IdleHint", "<false>")
        try daemon.waitForRoot("the attract screen dismissed when IdleHint turns false", timeout: 5) { !Self.presentsAttract($0) }
        XCTAssertEqual(try idle(daemon).stepsFired, 0)
    }

    func testInhibit_whileAClientHoldsOne_thenLogindListsTheDaemonsIdleBlockInhibitorUntilItCloses() throws {
        let (daemon, logind) = try start()
        XCTAssertFalse(try inhibitors(logind).contains("appstated"))
        var holder: ProbeConnection? = try ProbeConnection(path: daemon.daemon.socketPath)
        holder?.send(frame: #"{"method":"io.appstate.Inhibit","parameters":{"why":"card payment"},"more":true}"#)
        XCTAssertNotNil(holder?.nextRawFrame())
        let deadline = Date().addingTimeInterval(10)
        var listed = try inhibitors(logind)
        while !listed.contains("'appstated'"), Date() < deadline {
            usleep(20_000)
            listed = try inhibitors(logind)
        }
        XCTAssertTrue(listed.contains("('idle', 'appstated', 'card payment', 'block'"), listed)
        let follower = try daemon.waitForFollower("logind idle inhibitor", connected: true)
        XCTAssertEqual(follower["detail"], "holding an idle inhibitor: card payment")

        holder = nil
        let gone = Date().addingTimeInterval(10)
        while try inhibitors(logind).contains("'appstated'"), Date() < gone { usleep(20_000) }
        XCTAssertFalse(try inhibitors(logind).contains("'appstated'"), "closed with the last client inhibitor")
        withExtendedLifetime(holder) {}
    }
}
