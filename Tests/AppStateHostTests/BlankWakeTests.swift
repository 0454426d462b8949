import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// `Blank` and `Wake`, and what the tree file says of the root: the root's `blanked` and
/// `offline` in the published tree and to watchers, who may blank, what counts as activity,
/// and a tree file's blank step, after which the later steps still fire.
final class BlankWakeTests: AppStateTestCase {
    @MainActor private struct Fixture {
        let clock = ManualClock()
        let host: TreeHost
        let processor: RequestProcessor
        let lane = RecordingLane()
        let mutator = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

        /// The default tree, with an offline page and `steps`, ada logged in, watched.
        init(steps: [IdleStep] = []) async throws {
            var file = try HostedTreeFile.default
            file.trees[0].offline = "file:///srv/kiosk/offline.html"
            file.trees[0].idle = steps
            try file.validate()
            host = try TreeHost(file: file, clock: clock)
            host.makeVisible()
            processor = RequestProcessor(host: host, store: nil, idleTimer: ClockIdleTimer(clock))
            _ = await processor.process([VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: mutator)
            let watcher = ConnectionContext(peer: mutator.peer, watcher: RecordingWatcher(lane: lane))
            _ = await processor.process([VarlinkCall(method: Watch.name, more: true)], on: watcher)
            _ = try lane.takeReplies()
        }

        /// Answers one call, on the mutating connection unless told otherwise.
        func call(_ method: String, _ parameters: [String: JSONValue] = [:], mayMutate: Bool = true) async -> VarlinkReply? {
            let connection =
                mayMutate ? mutator : ConnectionContext(peer: Peer(pid: 2, uid: 1000, gid: 1000, mayMutate: false), watcher: ClosedWatcher())
            return await processor.process([VarlinkCall(method: method, parameters: parameters)], on: connection).first ?? nil
        }

        var root: NodeSnapshot {
            get throws { try host.published.snapshots.root(named: nil) }
        }

        var login: LoginStateController {
            get throws { try XCTUnwrap(host.trees.first?.root as? LoginStateController) }
        }

        func advance(seconds: Int64) {
            clock.advance(by: .seconds(seconds))
        }

        func idle() async throws -> IdleState {
            let stats = await processor.process([VarlinkCall(method: GetStats.name)], on: mutator)
            return try XCTUnwrap(try GetStats.Reply(parameters: try XCTUnwrap(stats.first??.parameters)).idle.first)
        }
    }

    @MainActor func testBlankWake_whenCalled_thenTheRootSaysBlankedUntilWokenAndWatchersAreTold() async throws {
        let fixture = try await Fixture()
        XCTAssertNil(try fixture.root.blanked, "absent while awake")

        let blank = await fixture.call(Blank.name)
        XCTAssertEqual(blank?.parameters, ["changed": true])
        XCTAssertEqual(try fixture.root.blanked, true)
        let again = await fixture.call(Blank.name, ["tree": "default"])
        XCTAssertEqual(again?.parameters, ["changed": false])
        var replies = try fixture.lane.takeReplies()
        XCTAssertEqual(replies.compactMap(\.event).map(\.name), ["Blank"], "nothing changed the second time")
        XCTAssertEqual(replies.first?.event?.path, "session")
        XCTAssertEqual(replies.first?.patches?["session"], ["blanked": true], "the root's member that changed")

        let wake = await fixture.call(Wake.name)
        XCTAssertEqual(wake?.parameters, ["changed": true])
        XCTAssertNil(try fixture.root.blanked)
        let awake = await fixture.call(Wake.name)
        XCTAssertEqual(awake?.parameters, ["changed": false])
        replies = try fixture.lane.takeReplies()
        XCTAssertEqual(replies.compactMap(\.event).map(\.name), ["Wake"])
        XCTAssertEqual(replies.first?.patches?["session"], ["blanked": .null], "taken away")
        let unknown = await fixture.call(Blank.name, ["tree": "nope"])
        XCTAssertEqual(unknown?.error, VarlinkError.noSuchTree("nope").name)
    }

    @MainActor func testBlankWake_whenTheCallerMayNotChangeState_thenPermissionDeniedAndNothingChanges() async throws {
        let fixture = try await Fixture()
        let blank = await fixture.call(Blank.name, mayMutate: false)
        XCTAssertEqual(blank?.error, VarlinkError.permissionDenied.name)
        XCTAssertNil(try fixture.root.blanked)
        _ = await fixture.call(Blank.name)
        let wake = await fixture.call(Wake.name, mayMutate: false)
        XCTAssertEqual(wake?.error, VarlinkError.permissionDenied.name)
        XCTAssertEqual(try fixture.root.blanked, true)
    }

    @MainActor func testOffline_whenTheTreeFileGivesOne_thenTheRootCarriesItAndAnUnchangedTreeIsPublishedAsItWas() async throws {
        let fixture = try await Fixture()
        let root = try fixture.root
        XCTAssertEqual(root.offline, "file:///srv/kiosk/offline.html")
        XCTAssertNil(root.children.first?.offline, "the root alone")
        fixture.host.publish()
        XCTAssertTrue(try fixture.root.isIdentical(to: root), "nothing changed, nothing allocated")
        _ = await fixture.call(SetPage.name, ["step": 1])
        let paged = try fixture.root
        XCTAssertEqual(paged.offline, "file:///srv/kiosk/offline.html")
        XCTAssertEqual(paged.changes(since: root).changed.map(\.path), ["session/home/pages"], "below the root only")
    }

    @MainActor func testBlank_whenAClientBlanks_thenNoActivityButWakeIs() async throws {
        let fixture = try await Fixture(steps: [IdleStep(after: 60, .lock)])
        fixture.advance(seconds: 50)
        _ = await fixture.call(Blank.name)
        fixture.advance(seconds: 10)
        XCTAssertTrue(try fixture.login.isLocked, "60 s after the login: blanking is nobody using the screen")
        _ = await fixture.call(Unlock.name)
        fixture.advance(seconds: 50)
        _ = await fixture.call(Wake.name)
        fixture.advance(seconds: 59)
        XCTAssertFalse(try fixture.login.isLocked, "waking is someone at the screen")
        fixture.advance(seconds: 1)
        XCTAssertTrue(try fixture.login.isLocked)
    }

    @MainActor func testBlankStep_whenItFires_thenBlankedAndTheLogoutAfterItStillFires() async throws {
        let fixture = try await Fixture(steps: [IdleStep(after: 60, .blank), IdleStep(after: 300, .logout)])
        fixture.advance(seconds: 60)
        XCTAssertEqual(try fixture.root.blanked, true)
        XCTAssertEqual(try fixture.lane.takeReplies().compactMap(\.event).map(\.name), ["Blank"])
        let idle = try await fixture.idle()
        XCTAssertEqual(idle.stepsFired, 1)
        XCTAssertEqual(idle.nextStep, "logout")
        fixture.advance(seconds: 240)
        XCTAssertNil(try fixture.login.session, "logged out 300 s after the last activity, blanked or not")
        XCTAssertEqual(try fixture.root.blanked, true, "still blanked: only Wake wakes")
        XCTAssertEqual(try fixture.lane.takeReplies().compactMap(\.event).map(\.name), ["Logout"])
    }

    @MainActor func testBlankStep_whenActivityIsReportedWhileBlanked_thenTheClockStartsAgainAndTheScreenStaysBlanked() async throws {
        let fixture = try await Fixture(steps: [IdleStep(after: 60, .blank), IdleStep(after: 300, .logout)])
        fixture.advance(seconds: 60)
        let activity = await fixture.call(ReportActivity.name)
        XCTAssertNil(activity?.error)
        XCTAssertEqual(try fixture.root.blanked, true, "the kiosk wakes the screen with Wake, on the first touch")
        let idle = try await fixture.idle()
        XCTAssertEqual(idle.stepsFired, 0)
        fixture.advance(seconds: 299)
        XCTAssertNotNil(try fixture.login.session)
        _ = await fixture.call(Wake.name)
        fixture.advance(seconds: 60)
        XCTAssertEqual(try fixture.root.blanked, true, "blanked again 60 s after the wake")
    }

    @MainActor func testReload_whenBlanked_thenStillBlanked() async throws {
        let fixture = try await Fixture()
        _ = await fixture.call(Blank.name)
        var file = try HostedTreeFile.default
        file.trees[0].offline = "https://kiosk.example/offline"
        try fixture.host.reload(file)
        XCTAssertEqual(try fixture.root.blanked, true)
        XCTAssertEqual(try fixture.root.offline, "https://kiosk.example/offline", "a reload takes the new offline page at once")
    }
}
