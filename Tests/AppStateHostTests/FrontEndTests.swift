import AppStateCore
import AppStateIPC
import NIOConcurrencyHelpers
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// `ReportFrontEnd` and `GetKiosk` in process, on a manual clock: the front-ends listed by
/// `GetStats` and told to watchers, their reports checked, one that stops reporting marked
/// down after its interval, the kiosk's socket found, and what a client can make the daemon
/// hold bounded.
final class FrontEndTests: AppStateTestCase {
    /// An idle timer on a manual clock that counts the timers waiting.
    private final class CountingTimer: IdleTimer, @unchecked Sendable {
        let base: ClockIdleTimer<ManualClock>
        let waiting = NIOLockedValueBox(0)

        init(_ clock: ManualClock) {
            base = ClockIdleTimer(clock)
        }

        var now: Duration { base.now }

        @MainActor func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) {
            waiting.withLockedValue { $0 += 1 }
            base.schedule(after: delay) { [waiting] in
                waiting.withLockedValue { $0 -= 1 }
                action()
            }
        }
    }

    @MainActor private struct Fixture {
        let clock = ManualClock()
        let timer: CountingTimer
        let host: TreeHost
        let processor: RequestProcessor
        let metrics = DaemonMetrics()
        let lane = RecordingLane()
        let mutator = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

        /// Two trees, `default` (the default tree, with a lock after 60 s) and `lobby`;
        /// `default` watched.
        init() async throws {
            var file = try HostedTreeFile.default
            file.trees[0].idle = [IdleStep(after: 60, .lock)]
            file.trees.append(HostedTreeSpec(TreeSpec(name: "lobby", root: NodeSpec(kind: Controller.Kind.self, id: "main"))))
            try file.validate()
            timer = CountingTimer(clock)
            host = try TreeHost(file: file, clock: clock)
            host.makeVisible()
            processor = RequestProcessor(host: host, store: nil, metrics: metrics, idleTimer: timer)
            let watcher = ConnectionContext(peer: mutator.peer, watcher: RecordingWatcher(lane: lane))
            _ = await processor.process([VarlinkCall(method: Watch.name, more: true)], on: watcher)
            _ = try lane.takeReplies()
        }

        /// Reports a front-end, on the mutating connection unless told otherwise.
        func report(
            _ kind: String = "kiosk", _ name: String = "appstate-kiosk 4242", state: String = "live", tree: String? = nil,
            _ more: [String: JSONValue] = [:], interval: Double = 10, mayMutate: Bool = true
        ) async -> VarlinkReply? {
            var parameters: [String: JSONValue] = ["kind": .string(kind), "name": .string(name), "state": .string(state)]
            parameters["livenessInterval"] = .number(interval)
            parameters["tree"] = tree.map(JSONValue.string)
            parameters.merge(more) { $1 }
            return await call(ReportFrontEnd.name, parameters, mayMutate: mayMutate)
        }

        func call(_ method: String, _ parameters: [String: JSONValue] = [:], mayMutate: Bool = true) async -> VarlinkReply? {
            let connection =
                mayMutate ? mutator : ConnectionContext(peer: Peer(pid: 2, uid: 1000, gid: 1000, mayMutate: false), watcher: ClosedWatcher())
            return await processor.process([VarlinkCall(method: method, parameters: parameters)], on: connection).first ?? nil
        }

        func frontEnds() async throws -> [FrontEnd] {
            let stats = await call(GetStats.name)
            return try GetStats.Reply(parameters: try XCTUnwrap(stats?.parameters)).frontEnds
        }

        /// The front-ends the watcher of `default` was told of since last asked.
        func told() throws -> [FrontEnd] {
            try lane.takeReplies().compactMap(\.event).map { event in
                XCTAssertEqual(event.name, "ReportFrontEnd")
                return try FrontEnd(parameters: try XCTUnwrap(event.userInfo))
            }
        }

        func advance(milliseconds: Int64) {
            clock.advance(by: .milliseconds(milliseconds))
        }
    }

    @MainActor func testReport_whenFrontEndsReport_thenListedTreeByTreeAndWatchersHearOfEachChange() async throws {
        let fixture = try await Fixture()
        let socket = "/run/appstate/kiosk-4242.sock"
        _ = await fixture.report(tree: "lobby")
        let first = await fixture.report("kiosk", "appstate-kiosk 4242", state: "loading", ["socket": .string(socket)])
        XCTAssertEqual(first?.parameters, [:])
        _ = await fixture.report("page", "page 7f3a", state: "offline", ["reason": "net::ERR_NAME_NOT_RESOLVED"])
        let kiosk = FrontEnd(tree: "default", kind: "kiosk", name: "appstate-kiosk 4242", state: "loading", reloads: 0, restarts: 0, socket: socket)
        let page = FrontEnd(
            tree: "default", kind: "page", name: "page 7f3a", state: "offline", reason: "net::ERR_NAME_NOT_RESOLVED", reloads: 0, restarts: 0)
        let lobby = FrontEnd(tree: "lobby", kind: "kiosk", name: "appstate-kiosk 4242", state: "live", reloads: 0, restarts: 0)
        var listed = try await fixture.frontEnds()
        XCTAssertEqual(listed, [kiosk, page, lobby], "tree by tree, each in the order it first reported")
        XCTAssertEqual(try fixture.told(), [kiosk, page], "the watcher of default hears of default's")

        _ = await fixture.report("kiosk", "appstate-kiosk 4242", state: "loading", ["socket": .string(socket)])
        XCTAssertEqual(try fixture.told(), [], "a report that changes nothing is no event")
        _ = await fixture.report(
            "kiosk", "appstate-kiosk 4242", state: "live", ["socket": .string(socket), "reloads": 2, "restarts": 1, "reason": "recovered"])
        var live = kiosk
        live.state = "live"
        live.reloads = 2
        live.restarts = 1
        XCTAssertEqual(try fixture.told(), [live])
        listed = try await fixture.frontEnds()
        XCTAssertEqual(listed.first, live, "replaced in its place, without a reason, since it is live")
        let unknown = await fixture.report(tree: "nope")
        XCTAssertEqual(unknown?.error, VarlinkError.noSuchTree("nope").name)
    }

    @MainActor func testReport_whenAValueIsImpossible_thenInvalidValueNamingItAndNothingListed() async throws {
        let fixture = try await Fixture()
        let cases: [(kind: String, name: String, state: String, more: [String: JSONValue], interval: Double, parameter: String)] = [
            ("browser", "k", "live", [:], 10, "kind"),
            ("kiosk", "k", "dead", [:], 10, "state"),
            ("kiosk", "", "live", [:], 10, "name"),
            ("kiosk", " ", "live", [:], 10, "name"),
            ("kiosk", "a\nb", "live", [:], 10, "name"),
            ("kiosk", String(repeating: "k", count: 257), "live", [:], 10, "name"),
            ("kiosk", "k", "offline", ["reason": .string(String(repeating: "r", count: 1025))], 10, "reason"),
            ("kiosk", "k", "offline", ["reason": "a\nb"], 10, "reason"),
            ("kiosk", "k", "live", ["reloads": -1], 10, "reloads"),
            ("kiosk", "k", "live", ["restarts": -1], 10, "restarts"),
            ("kiosk", "k", "live", [:], 0.05, "livenessInterval"),
            ("kiosk", "k", "live", [:], 3601, "livenessInterval"),
            ("kiosk", "k", "live", ["socket": "kiosk.sock"], 10, "socket"),
            ("kiosk", "k", "live", ["socket": .string("/" + String(repeating: "s", count: 107))], 10, "socket"),
            ("kiosk", "k", "live", ["socket": "/run/a\u{7}b"], 10, "socket"),
        ]
        for (kind, name, state, more, interval, parameter) in cases {
            let reply = await fixture.report(kind, name, state: state, more, interval: interval)
            XCTAssertEqual(reply?.error, "io.appstate.InvalidValue", "\(parameter): \(kind) \(name) \(state) \(more) \(interval)")
            XCTAssertEqual(reply?.parameters["parameter"], .string(parameter))
        }
        let longest = await fixture.report(
            "kiosk", String(repeating: "k", count: 256), state: "offline",
            ["reason": .string(String(repeating: "r", count: 1024)), "socket": .string("/" + String(repeating: "s", count: 106))], interval: 3600)
        XCTAssertNil(longest?.error, "the limits themselves are allowed")
        let frontEnds = try await fixture.frontEnds()
        XCTAssertEqual(frontEnds.count, 1)
    }

    @MainActor func testReport_whenTheCallerMayNotChangeState_thenPermissionDenied() async throws {
        let fixture = try await Fixture()
        let reply = await fixture.report(mayMutate: false)
        XCTAssertEqual(reply?.error, VarlinkError.permissionDenied.name)
        let frontEnds = try await fixture.frontEnds()
        XCTAssertEqual(frontEnds, [])
        let kiosk = await fixture.call(GetKiosk.name, mayMutate: false)
        XCTAssertEqual(kiosk?.error, VarlinkError.noKiosk(tree: "default").name, "GetKiosk is a read, open to every peer")
    }

    @MainActor func testLiveness_whenAFrontEndStopsReporting_thenMarkedDownAfterItsIntervalUntilItReportsAgain() async throws {
        let fixture = try await Fixture()
        _ = await fixture.report("page", "page 1", interval: 0.5)
        _ = await fixture.report("kiosk", "appstate-kiosk 1", interval: 2)
        _ = try fixture.told()
        fixture.advance(milliseconds: 400)
        _ = await fixture.report("page", "page 1", interval: 0.5)
        fixture.advance(milliseconds: 499)
        XCTAssertEqual(try fixture.told(), [], "it reported 499 ms ago")
        fixture.advance(milliseconds: 1)
        var down = try fixture.told()
        XCTAssertEqual(down.map(\.name), ["page 1"])
        XCTAssertEqual(down.first?.state, "down")
        XCTAssertEqual(down.first?.reason, "did not report within 0.5 s")
        var listed = try await fixture.frontEnds()
        XCTAssertEqual(listed.map(\.state), ["down", "live"], "kept, as down")

        fixture.advance(milliseconds: 1100)
        down = try fixture.told()
        XCTAssertEqual(down.map(\.name), ["appstate-kiosk 1"])
        XCTAssertEqual(down.first?.reason, "did not report within 2 s")
        fixture.advance(milliseconds: 10_000)
        XCTAssertEqual(try fixture.told(), [], "marked down once")

        _ = await fixture.report("page", "page 1", interval: 0.5)
        listed = try await fixture.frontEnds()
        XCTAssertEqual(listed.map(\.state), ["live", "down"])
        XCTAssertNil(listed.first?.reason)
        _ = await fixture.report("kiosk", "appstate-kiosk 1", state: "down", ["reason": "stopped"], interval: 0.5)
        fixture.advance(milliseconds: 500)
        down = try fixture.told()
        XCTAssertEqual(down.map(\.name), ["page 1", "appstate-kiosk 1", "page 1"])
        XCTAssertEqual(down.last?.reason, "did not report within 0.5 s", "one that said it is down is not marked again")
    }

    @MainActor func testLiveness_whenReportsKeepShorteningTheirInterval_thenFewTimersWaitAndTheFrontEndIsMarkedDownNearlyOnTime() async throws {
        let fixture = try await Fixture()
        var waiting = 0
        for round in 0..<1000 {
            _ = await fixture.report("page", "page 1", interval: 3600 - Double(round) * 3.5)
            fixture.advance(milliseconds: 1)
            waiting = max(waiting, fixture.timer.waiting.withLockedValue { $0 })
        }
        XCTAssertLessThan(waiting, 150, "each timer waiting is due a tenth further off than the one before")
        // The last report gave it 103.5 s: it is down by 110% of that.
        fixture.advance(milliseconds: 103_498)
        var listed = try await fixture.frontEnds()
        XCTAssertEqual(listed.map(\.state), ["live"])
        fixture.advance(milliseconds: 10_400)
        listed = try await fixture.frontEnds()
        XCTAssertEqual(listed.map(\.state), ["down"])
        XCTAssertEqual(listed.first?.reason, "did not report within 103.5 s")
    }

    @MainActor func testReport_whenMoreFrontEndsThanATreeKeeps_thenTheOldestDownOneGoesFirst() async throws {
        let fixture = try await Fixture()
        _ = await fixture.report("page", "first", interval: 0.5)
        for index in 1..<FrontEndBoard.maximumPerTree { _ = await fixture.report("page", "page \(index)", interval: 3600) }
        fixture.advance(milliseconds: 500)
        _ = await fixture.report("page", "newcomer", interval: 3600)
        var names = try await fixture.frontEnds().map(\.name)
        XCTAssertEqual(names.count, FrontEndBoard.maximumPerTree)
        XCTAssertFalse(names.contains("first"), "the down one went")
        XCTAssertEqual(names.last, "newcomer")
        fixture.advance(milliseconds: 1)
        _ = await fixture.report("page", "page 2", interval: 3600)
        _ = await fixture.report("page", "another", interval: 3600)
        names = try await fixture.frontEnds().map(\.name)
        XCTAssertEqual(names.count, FrontEndBoard.maximumPerTree)
        XCTAssertFalse(names.contains("page 1"), "none down: the one that reported least recently went")
        XCTAssertTrue(names.contains("page 2"))
    }

    @MainActor func testGetKiosk_whenKiosksReport_thenTheSocketOfTheLatestThatIsUpElseNoKiosk() async throws {
        let fixture = try await Fixture()
        var reply = await fixture.call(GetKiosk.name)
        XCTAssertEqual(reply?.error, "io.appstate.NoKiosk")
        XCTAssertEqual(reply?.parameters, ["tree": "default"])
        _ = await fixture.report("page", "page 1", ["socket": "/run/page.sock"])
        _ = await fixture.report("kiosk", "kiosk without a socket")
        reply = await fixture.call(GetKiosk.name)
        XCTAssertEqual(reply?.error, "io.appstate.NoKiosk", "a page's socket is no kiosk's, and a kiosk may give none")

        _ = await fixture.report("kiosk", "a", ["socket": "/run/a.sock"], interval: 1)
        _ = await fixture.report("kiosk", "b", ["socket": "/run/b.sock"], interval: 5)
        reply = await fixture.call(GetKiosk.name, ["tree": "default"])
        XCTAssertEqual(reply?.parameters, ["socket": "/run/b.sock"])
        fixture.advance(milliseconds: 500)
        _ = await fixture.report("kiosk", "a", ["socket": "/run/a.sock"], interval: 1)
        reply = await fixture.call(GetKiosk.name)
        XCTAssertEqual(reply?.parameters, ["socket": "/run/a.sock"], "the one that reported last")
        fixture.advance(milliseconds: 1000)
        reply = await fixture.call(GetKiosk.name)
        XCTAssertEqual(reply?.parameters, ["socket": "/run/b.sock"], "a is down")
        _ = await fixture.report("kiosk", "b", state: "down", ["socket": "/run/b.sock"])
        reply = await fixture.call(GetKiosk.name)
        XCTAssertEqual(reply?.error, "io.appstate.NoKiosk")
        reply = await fixture.call(GetKiosk.name, ["tree": "lobby"])
        XCTAssertEqual(reply?.parameters, ["tree": "lobby"])
        reply = await fixture.call(GetKiosk.name, ["tree": "nope"])
        XCTAssertEqual(reply?.error, VarlinkError.noSuchTree("nope").name)
    }

    @MainActor func testReport_whenFrontEndsReportOften_thenNoActivityAndTheIdleStepsStillFire() async throws {
        let fixture = try await Fixture()
        _ = await fixture.call(Login.name, ["user": "ada"])
        for _ in 0..<12 {
            fixture.advance(milliseconds: 5_000)
            _ = await fixture.report("page", "page 1")
        }
        let login = try XCTUnwrap(fixture.host.trees.first?.root as? LoginStateController)
        XCTAssertTrue(login.isLocked, "locked 60 s after the login")
    }

    @MainActor func testMetrics_whenReportsCountRecoveries_thenTheRisesAreCountedAndTheFrontEndsUpByKind() async throws {
        let fixture = try await Fixture()
        _ = await fixture.report("kiosk", "k", ["reloads": 5, "restarts": 1], interval: 1)
        _ = await fixture.report("kiosk", "k", ["reloads": 7, "restarts": 1], interval: 1)
        _ = await fixture.report("kiosk", "k", ["reloads": 8, "restarts": 3], interval: 1)
        _ = await fixture.report("kiosk", "k", ["reloads": 0, "restarts": 0], interval: 1)
        _ = await fixture.report("kiosk", "k", ["reloads": 1, "restarts": 0], interval: 1)
        _ = await fixture.report("page", "p1", tree: "lobby")
        _ = await fixture.report("page", "p2", tree: "lobby")
        var lines = Set(fixture.processor.exposition.split(separator: "\n").map(String.init))
        for expected in [
            #"appstate_frontend_recoveries_total{tree="default",recovery="reload"} 4"#,
            #"appstate_frontend_recoveries_total{tree="default",recovery="restart"} 2"#,
            #"appstate_frontends_up{tree="default",kind="kiosk"} 1.0"#,
            #"appstate_frontends_up{tree="default",kind="page"} 0.0"#,
            #"appstate_frontends_up{tree="lobby",kind="kiosk"} 0.0"#,
            #"appstate_frontends_up{tree="lobby",kind="page"} 2.0"#,
        ] {
            XCTAssertTrue(lines.contains(expected), "no \(expected) in:\n\(lines.sorted().joined(separator: "\n"))")
        }
        fixture.advance(milliseconds: 1000)
        lines = Set(fixture.processor.exposition.split(separator: "\n").map(String.init))
        XCTAssertTrue(lines.contains(#"appstate_frontends_up{tree="default",kind="kiosk"} 0.0"#), "down")
    }

    @MainActor func testReload_whenATreeIsGone_thenItsFrontEndsAreForgottenAndNoneIsUp() async throws {
        let fixture = try await Fixture()
        _ = await fixture.report(tree: "lobby")
        _ = await fixture.report()
        XCTAssertTrue(fixture.processor.exposition.contains(#"appstate_frontends_up{tree="lobby",kind="kiosk"} 1.0"#))
        try fixture.host.reload(try HostedTreeFile.default)
        let listed = try await fixture.frontEnds()
        XCTAssertEqual(listed.map(\.tree), ["default"])
        XCTAssertTrue(fixture.processor.exposition.contains(#"appstate_frontends_up{tree="lobby",kind="kiosk"} 0.0"#), "not what it last had")
    }
}
