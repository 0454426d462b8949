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

/// The idle steps of a tree file, on a manual clock shared by the windows and the idle timer:
/// they fire in order once nobody has used the tree for their time, activity of every kind
/// starts the clock again, and inhibitors hold the steps back.
final class IdleStepsTests: AppStateTestCase {
    /// The seats whose session the processor asked logind to lock, in order.
    private final class RecordingSessionLocker: SystemSessionLocker {
        let seats = NIOLockedValueBox<[String]>([])
        func lockSession(seat: String) { seats.withLockedValue { $0.append(seat) } }
    }

    /// What the processor asked of the system's idle inhibitor, in order.
    private final class RecordingSystemInhibitor: SystemIdleInhibitor {
        let asked = NIOLockedValueBox<[String?]>([])
        func hold(_ why: String?) { asked.withLockedValue { $0.append(why) } }
    }

    private struct Fixture {
        let clock: ManualClock
        let host: TreeHost
        let processor: RequestProcessor

        @MainActor var login: LoginStateController {
            get throws { try XCTUnwrap(host.trees.first?.root as? LoginStateController) }
        }

        @MainActor func advance(seconds: Double) {
            clock.advance(by: .milliseconds(Int64(seconds * 1000)))
        }

        @MainActor func idle() async throws -> IdleState {
            let stats = await processor.process([VarlinkCall(method: GetStats.name)], on: IdleStepsTests.connection())
            return try XCTUnwrap(try GetStats.Reply(parameters: try XCTUnwrap(stats.first??.parameters)).idle.first)
        }
    }

    nonisolated static func connection(mayMutate: Bool = true, watcher: (any WatcherSink)? = nil) -> ConnectionContext {
        ConnectionContext(peer: Peer(pid: 4242, uid: 1000, gid: 1000, mayMutate: mayMutate), watcher: watcher ?? ClosedWatcher())
    }

    /// The default tree with a lock after 60 s and a logout after 300 s, ada logged in.
    @MainActor private func start(
        steps: [IdleStep] = [IdleStep(after: 60, .lock), IdleStep(after: 300, .logout)], loggedIn: Bool = true
    ) async throws -> Fixture {
        var file = try HostedTreeFile.default
        file.trees[0].idle = steps
        try file.validate()
        let clock = ManualClock()
        let host = try TreeHost(file: file, clock: clock)
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil, idleTimer: ClockIdleTimer(clock))
        if loggedIn {
            let replies = await processor.process([VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: Self.connection())
            XCTAssertNil(replies.first??.error)
        }
        return Fixture(clock: clock, host: host, processor: processor)
    }

    @MainActor func testIdleSteps_whenNobodyUsesTheTree_thenEachFiresAtItsTimeInOrder() async throws {
        let fixture = try await start()
        fixture.advance(seconds: 59.9)
        XCTAssertFalse(try fixture.login.isLocked)
        fixture.advance(seconds: 0.1)
        XCTAssertTrue(try fixture.login.isLocked, "locked 60 s after the last activity (the login)")
        var idle = try await fixture.idle()
        XCTAssertEqual(idle.stepsFired, 1)
        XCTAssertEqual(idle.nextStep, "logout")
        XCTAssertEqual(try XCTUnwrap(idle.nextStepInSeconds), 240, accuracy: 0.001)
        XCTAssertEqual(idle.idleSeconds, 60, accuracy: 0.001)
        fixture.advance(seconds: 240)
        XCTAssertNil(try fixture.login.session, "logged out 300 s after the last activity")
        idle = try await fixture.idle()
        XCTAssertEqual(idle.stepsFired, 2)
        XCTAssertNil(idle.nextStep)
        XCTAssertNil(idle.nextStepInSeconds)
    }

    @MainActor func testReportActivity_whenNoStepHasFired_thenAnsweredAtOnceAndTheClockStartsAgain() async throws {
        let fixture = try await start()
        fixture.advance(seconds: 50)
        var buffer: [UInt8] = []
        XCTAssertTrue(fixture.processor.answerImmediately(VarlinkCall(method: ReportActivity.name), into: &buffer))
        XCTAssertEqual(try VarlinkReply(frame: Array(buffer.dropLast())), VarlinkReply())
        fixture.advance(seconds: 59)
        XCTAssertFalse(try fixture.login.isLocked, "109 s after the login, 59 s after the activity")
        let idleSeconds = try await fixture.idle().idleSeconds
        XCTAssertEqual(idleSeconds, 59, accuracy: 0.001)
        fixture.advance(seconds: 1)
        XCTAssertTrue(try fixture.login.isLocked)
    }

    @MainActor func testReportActivity_whenAStepHasFired_thenTheMainActorStartsTheStepsAgain() async throws {
        let fixture = try await start()
        fixture.advance(seconds: 60)
        XCTAssertTrue(try fixture.login.isLocked)
        var buffer: [UInt8] = []
        XCTAssertFalse(
            fixture.processor.answerImmediately(VarlinkCall(method: ReportActivity.name, parameters: ["tree": "default"]), into: &buffer),
            "after a step, the activity needs the main actor")
        XCTAssertTrue(buffer.isEmpty)
        let replies = await fixture.processor.process(
            [VarlinkCall(method: ReportActivity.name, parameters: ["tree": "default"])], on: Self.connection(mayMutate: false))
        XCTAssertEqual(replies.first??.parameters, [:], "open to peers that may not change state")
        let stepsFired = try await fixture.idle().stepsFired
        XCTAssertEqual(stepsFired, 0)
        _ = await fixture.processor.process([VarlinkCall(method: Unlock.name)], on: Self.connection())
        fixture.advance(seconds: 299)
        XCTAssertNotNil(try fixture.login.session)
        XCTAssertTrue(try fixture.login.isLocked, "locked again 60 s after the activity")
        fixture.advance(seconds: 1)
        XCTAssertNil(try fixture.login.session)
    }

    @MainActor func testReportActivity_whenTheTreeIsUnknown_thenNoSuchTreeAtOnceAndInABatch() async throws {
        let fixture = try await start()
        let call = VarlinkCall(method: ReportActivity.name, parameters: ["tree": "nope"])
        var buffer: [UInt8] = []
        XCTAssertTrue(fixture.processor.answerImmediately(call, into: &buffer))
        XCTAssertEqual(try VarlinkReply(frame: Array(buffer.dropLast())).error, VarlinkError.noSuchTree("nope").name)
        let replies = await fixture.processor.process([call], on: Self.connection())
        XCTAssertEqual(replies.first??.error, VarlinkError.noSuchTree("nope").name)
    }

    @MainActor func testMutation_whenAClientOrAFollowerChangesTheTree_thenItCountsAsActivity() async throws {
        let fixture = try await start()
        fixture.advance(seconds: 50)
        _ = await fixture.processor.process([VarlinkCall(method: SetPage.name, parameters: ["step": 1])], on: Self.connection())
        fixture.advance(seconds: 50)
        XCTAssertFalse(try fixture.login.isLocked)
        _ = await fixture.processor.processFollowed([VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])])
        fixture.advance(seconds: 59)
        XCTAssertFalse(try fixture.login.isLocked)
        fixture.advance(seconds: 1)
        XCTAssertTrue(try fixture.login.isLocked)
        // logind locks and logs out when the session goes idle: no use of the tree either.
        _ = await fixture.processor.processFollowed([VarlinkCall(method: Lock.name)])
        // Nor is an output's new size: the compositor changes it with nobody at the screen.
        let resized = await fixture.processor.processFollowed([
            VarlinkCall(method: Resize.name, parameters: ["width": 720, "height": 1280])
        ])
        XCTAssertNil(resized.first??.error)
        // A refused change is no use of the tree.
        let refused = await fixture.processor.process([VarlinkCall(method: Logout.name)], on: Self.connection(mayMutate: false))
        XCTAssertEqual(refused.first??.error, VarlinkError.permissionDenied.name)
        let stepsFired = try await fixture.idle().stepsFired
        XCTAssertEqual(stepsFired, 1)
    }

    @MainActor func testInhibit_whileHeld_thenNoStepFiresAndItsEndStartsTheClockAgain() async throws {
        let fixture = try await start()
        let system = RecordingSystemInhibitor()
        fixture.processor.systemIdleInhibitor = system
        let watcher = RecordingWatcher(lane: RecordingLane())
        fixture.advance(seconds: 30)
        let replies = await fixture.processor.process(
            [VarlinkCall(method: Inhibit.name, parameters: ["why": "card payment"], more: true)], on: Self.connection(watcher: watcher))
        XCTAssertEqual(replies.first??.continues, true, "answered at once, and held")
        XCTAssertTrue(watcher.endsWithInput, "a client that dies releases it")
        fixture.advance(seconds: 1000)
        XCTAssertFalse(try fixture.login.isLocked)
        let stats = await fixture.processor.process([VarlinkCall(method: GetStats.name)], on: Self.connection())
        let reply = try GetStats.Reply(parameters: try XCTUnwrap(stats.first??.parameters))
        XCTAssertEqual(reply.inhibitors.map(\.why), ["card payment"])
        XCTAssertEqual(reply.inhibitors.first?.uid, 1000)
        XCTAssertEqual(reply.inhibitors.first?.pid, 4242)
        XCTAssertEqual(reply.inhibitors.first?.tree, "default")
        XCTAssertEqual(reply.idle.first?.inhibitors, 1)
        XCTAssertNil(reply.idle.first?.nextStepInSeconds, "held back")
        XCTAssertEqual(system.asked.withLockedValue { $0 }, [nil, "card payment"])

        watcher.close()
        XCTAssertEqual(system.asked.withLockedValue { $0 }, [nil, "card payment", nil])
        fixture.advance(seconds: 59)
        XCTAssertFalse(try fixture.login.isLocked, "the clock starts again when the inhibitor ends")
        fixture.advance(seconds: 1)
        XCTAssertTrue(try fixture.login.isLocked)
        let inhibitors = try await fixture.idle().inhibitors
        XCTAssertEqual(inhibitors, 0)
    }

    @MainActor func testInhibit_whenCalledWrongly_thenDeclaredErrorsAndNothingHeld() async throws {
        let fixture = try await start()
        let cases: [(VarlinkCall, ConnectionContext, String)] = [
            (VarlinkCall(method: Inhibit.name, parameters: ["why": "x"]), Self.connection(), VarlinkError.expectedMore.name),
            (
                VarlinkCall(method: Inhibit.name, parameters: ["why": "x"], more: true), Self.connection(mayMutate: false),
                VarlinkError.permissionDenied.name
            ),
            (VarlinkCall(method: Inhibit.name, parameters: ["why": "\n"], more: true), Self.connection(), "io.appstate.InvalidValue"),
            (
                VarlinkCall(method: Inhibit.name, parameters: ["why": "x", "tree": "nope"], more: true), Self.connection(),
                VarlinkError.noSuchTree("nope").name
            ),
            (VarlinkCall(method: Inhibit.name, more: true), Self.connection(), "org.varlink.service.InvalidParameter"),
        ]
        for (call, connection, error) in cases {
            let replies = await fixture.processor.process([call], on: connection)
            XCTAssertEqual(replies.first??.error, error, "\(call.parameters)")
            XCTAssertNotEqual(replies.first??.continues, true)
        }
        fixture.advance(seconds: 60)
        XCTAssertTrue(try fixture.login.isLocked)
    }

    @MainActor func testSystemIdle_whenLogindSaysIdleSinceEarlier_thenItsWordStandsAndActiveStartsTheClockAgain() async throws {
        let fixture = try await start()
        fixture.advance(seconds: 10)
        fixture.processor.followedIdle(tree: "default", idleFor: .seconds(70))
        var idle = try await fixture.idle()
        XCTAssertEqual(idle.idleSeconds, 70, accuracy: 0.001, "idle since logind says, before the login and the daemon's start")
        fixture.advance(seconds: 0.001)
        XCTAssertTrue(try fixture.login.isLocked, "the lock's 60 s have passed")
        fixture.processor.followedIdle(tree: "default", idleFor: nil)
        idle = try await fixture.idle()
        XCTAssertEqual(idle.stepsFired, 0, "logind's session turning active is activity")
        XCTAssertEqual(idle.idleSeconds, 0, accuracy: 0.001)
        fixture.advance(seconds: 30)
        fixture.processor.followedIdle(tree: "default", idleFor: .seconds(10))
        idle = try await fixture.idle()
        XCTAssertEqual(idle.idleSeconds, 10, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(idle.nextStepInSeconds), 50, accuracy: 0.001)
        fixture.advance(seconds: 5)
        var buffer: [UInt8] = []
        XCTAssertTrue(fixture.processor.answerImmediately(VarlinkCall(method: ReportActivity.name), into: &buffer))
        let afterActivity = try await fixture.idle().idleSeconds
        XCTAssertEqual(afterActivity, 0, accuracy: 0.001, "activity after logind's word counts")
    }

    @MainActor func testIdleStep_whenTheTreeFollowsLogind_thenLogindIsAskedToLockElseItIsRefused() async throws {
        var file = try HostedTreeFile.default
        file.trees[0].idle = [IdleStep(after: 1, .lock)]
        let clock = ManualClock()
        let host = try TreeHost(file: file, clock: clock)
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil, sessionOwners: ["default": "seat0"], idleTimer: ClockIdleTimer(clock))
        _ = await processor.processFollowed([VarlinkCall(method: Login.name, parameters: ["user": "ada"])])
        clock.advance(by: .seconds(1))
        let login = try XCTUnwrap(host.trees.first?.root as? LoginStateController)
        XCTAssertFalse(login.isLocked, "logind owns the lock, and no locker was given")

        let locker = RecordingSessionLocker()
        processor.systemSessionLocker = locker
        _ = await processor.processFollowed([VarlinkCall(method: Post.name, parameters: ["name": "app.touch"])])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(locker.seats.withLockedValue { $0 }, ["seat0"])
        XCTAssertFalse(login.isLocked, "the tree locks when logind says so")
    }

    /// The default tree with an attract screen its root may present.
    @MainActor private func startPresenting() async throws -> (Fixture, Controller) {
        var file = try HostedTreeFile.default
        file.trees[0].presentations = [NodeSpec(kind: Controller.Kind.self, id: "attract")]
        file.trees[0].idle = [IdleStep(after: 60, .present("attract")), IdleStep(after: 300, .logout)]
        try file.validate()
        let clock = ManualClock()
        let host = try TreeHost(file: file, clock: clock)
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil, idleTimer: ClockIdleTimer(clock))
        return (Fixture(clock: clock, host: host, processor: processor), try XCTUnwrap(host.trees.first?.root))
    }

    @MainActor func testPresentStep_whenItFires_thenPresentedAndTheNextActivityDismissesIt() async throws {
        let (fixture, root) = try await startPresenting()
        fixture.advance(seconds: 60)
        XCTAssertEqual(root.presentedViewController?.identifier, "attract")
        let next = try await fixture.idle().nextStep
        XCTAssertEqual(next, "logout")
        var buffer: [UInt8] = []
        XCTAssertFalse(
            fixture.processor.answerImmediately(VarlinkCall(method: ReportActivity.name), into: &buffer), "dismissing takes the main actor")
        let replies = await fixture.processor.process([VarlinkCall(method: ReportActivity.name)], on: Self.connection(mayMutate: false))
        XCTAssertEqual(replies.first??.parameters, [:])
        while root.presentedViewController != nil { await Task.yield() }
        let stepsFired = try await fixture.idle().stepsFired
        XCTAssertEqual(stepsFired, 0)
        XCTAssertTrue(fixture.processor.answerImmediately(VarlinkCall(method: ReportActivity.name), into: &buffer), "nothing to dismiss now")

        fixture.advance(seconds: 60)
        XCTAssertEqual(root.presentedViewController?.identifier, "attract")
        // A client's change is activity too; the dismissal is the idle step's, no activity.
        _ = await fixture.processor.process(
            [VarlinkCall(method: SetPage.name, parameters: ["step": 1, "path": "session/home/pages"])], on: Self.connection())
        while root.presentedViewController != nil { await Task.yield() }
        fixture.advance(seconds: 59)
        XCTAssertNil(root.presentedViewController)
        fixture.advance(seconds: 1)
        XCTAssertEqual(root.presentedViewController?.identifier, "attract")
    }

    @MainActor func testPresentStep_whenAClientPresentsBeforeTheDismissalRuns_thenWhatTheClientPresentedStays() async throws {
        let (fixture, root) = try await startPresenting()
        fixture.advance(seconds: 60)
        _ = await fixture.processor.processFollowed([VarlinkCall(method: Dismiss.name)])
        XCTAssertNil(root.presentedViewController, "a follower's dismissal")
        _ = await fixture.processor.process([VarlinkCall(method: Present.name, parameters: ["id": "attract"])], on: Self.connection())
        let stats = try await fixture.idle()
        XCTAssertEqual(stats.stepsFired, 0, "the client's Present was activity")
        // The dismissal the follower's activity asked for comes after its batch.
        for _ in 0..<20 { await Task.yield() }
        XCTAssertEqual(root.presentedViewController?.identifier, "attract", "what a client presents stays")
    }

    @MainActor func testPresentStep_whenFoundPresentedAtStart_thenTheNextActivityDismissesIt() async throws {
        let (fixture, root) = try await startPresenting()
        fixture.advance(seconds: 60)
        XCTAssertEqual(root.presentedViewController?.identifier, "attract")
        // A new processor over the trees as a restart restores them.
        let restarted = RequestProcessor(host: fixture.host, store: nil, idleTimer: ClockIdleTimer(fixture.clock))
        var buffer: [UInt8] = []
        XCTAssertFalse(restarted.answerImmediately(VarlinkCall(method: ReportActivity.name), into: &buffer))
        _ = await restarted.process([VarlinkCall(method: ReportActivity.name)], on: Self.connection())
        while root.presentedViewController != nil { await Task.yield() }
    }

    @MainActor func testReload_whenTheStepsChange_thenTheClockGoesOnWithTheNewSteps() async throws {
        let fixture = try await start()
        fixture.advance(seconds: 30)
        var file = try HostedTreeFile.default
        file.trees[0].idle = [IdleStep(after: 40, .logout)]
        try fixture.host.reload(file)
        fixture.advance(seconds: 9)
        XCTAssertNotNil(try fixture.login.session)
        fixture.advance(seconds: 1)
        XCTAssertNil(try fixture.login.session, "40 s after the login, on the reloaded tree")
    }
}
