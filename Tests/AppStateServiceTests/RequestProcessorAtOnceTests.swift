import AppStateCore
import AppStateIPC
@testable import AppStateService
import StateContainers
import TestSupport
import XCTest

/// On the daemon's one thread, a batch that needs to wait for nothing is answered at once,
/// its watchers told before the call returns; anything that must wait goes the usual way.
final class RequestProcessorAtOnceTests: XCTestCase {
    /// Looks the peer's groups up, as for a user who is neither root nor the daemon's.
    private struct LookedUpAccess: MutationAccess {
        func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool { true }
    }

    @MainActor private struct Fixture {
        let processor: RequestProcessor
        let host: TreeHost
        let store: StateStore
        let lane = RecordingLane()
        let mutator = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

        init(directory: TemporaryDirectory) async throws {
            store = StateStore(directory: directory.path)
            host = try TreeHost(file: TreeFile.default, clock: ManualClock())
            host.makeVisible()
            processor = RequestProcessor(host: host, store: store)
            let watcher = ConnectionContext(peer: mutator.peer, watcher: RecordingWatcher(lane: lane))
            _ = await processor.process([VarlinkCall(method: Watch.name, more: true)], on: watcher)
        }

        var keyboardOverlap: Double? {
            (try? host.published.snapshots.root(named: nil))?.node(at: "session/login")?.keyboardOverlap
        }
    }

    func testProcessAtOnce_whenAKeyboardMoveOnTheLoopsThread_thenAnsweredWithItsWatchersToldBeforeItReturns() throws {
        let directory = try TemporaryDirectory()
        try MainThreadEventLoop.run { _ in
            let fixture = try await Fixture(directory: directory)
            let show = VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300, "duration": 0])

            let replies = fixture.processor.processAtOnce([show, VarlinkCall(method: GetCurrent.name)], on: fixture.mutator)

            XCTAssertEqual(replies?.count, 2)
            XCTAssertNil(replies?.first??.error)
            XCTAssertEqual(replies?.last??.parameters["path"], "session/login/login-form", "a read after the change reads it")
            XCTAssertEqual(try fixture.lane.takeReplies().compactMap(\.event?.name), ["ShowKeyboard"])
            XCTAssertEqual(fixture.keyboardOverlap, 300, "published for the readers")
        }
    }

    @MainActor func testProcessAtOnce_whenOffTheLoopsThread_thenNilAndNothingDone() async throws {
        let fixture = try await Fixture(directory: TemporaryDirectory())

        let replies = fixture.processor.processAtOnce([VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])], on: fixture.mutator)

        XCTAssertNil(replies)
        XCTAssertEqual(try fixture.lane.takeReplies().count, 0)
        XCTAssertEqual(fixture.keyboardOverlap, 0)
    }

    func testProcessAtOnce_whenTheBatchHoldsADurableChangeOrAWatch_thenNilAndNothingDone() throws {
        let directory = try TemporaryDirectory()
        try MainThreadEventLoop.run { _ in
            let fixture = try await Fixture(directory: directory)
            let show = VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])

            for durable in [VarlinkCall(method: Login.name, parameters: ["user": "ada"]), VarlinkCall(method: Watch.name, more: true)] {
                XCTAssertNil(fixture.processor.processAtOnce([show, durable], on: fixture.mutator), durable.method)
            }

            XCTAssertEqual(try fixture.lane.takeReplies().count, 0)
            XCTAssertEqual(fixture.keyboardOverlap, 0)
            XCTAssertNil(try fixture.store.load(), "nothing written either")
        }
    }

    func testProcessAtOnce_whenThePeersAccessIsNotDecidedYet_thenNilSoTheLookupRunsOffTheLoop() throws {
        let directory = try TemporaryDirectory()
        try MainThreadEventLoop.run { _ in
            let fixture = try await Fixture(directory: directory)
            let peer = Peer(pid: 7, uid: 1000, gid: 1000, access: PeerAccessDecision(access: LookedUpAccess(), pid: 7, uid: 1000, gid: 1000))
            let stranger = ConnectionContext(peer: peer, watcher: ClosedWatcher())
            let show = VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])

            XCTAssertNil(fixture.processor.processAtOnce([show], on: stranger))
            let read = fixture.processor.processAtOnce([VarlinkCall(method: GetCurrent.name)], on: stranger)
            XCTAssertEqual(read?.first??.parameters["path"], "session/login/login-form", "a batch that only reads needs no decision")

            _ = await fixture.processor.process([show], on: stranger)
            XCTAssertNotNil(fixture.processor.processAtOnce([show], on: stranger), "decided once, at the first change")
        }
    }

    func testProcessAtOnce_whenAnotherBatchsWriteIsUnderWay_thenNilSoTheChangeWaitsItsTurn() throws {
        let directory = try TemporaryDirectory()
        try MainThreadEventLoop.run { _ in
            let fixture = try await Fixture(directory: directory)
            let processor = fixture.processor
            _ = await processor.process([VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: fixture.mutator)
            _ = try fixture.lane.takeReplies()
            let page = Task { await processor.process([VarlinkCall(method: SetPage.name, parameters: ["index": 1])], on: fixture.mutator) }
            while await fixture.store.inFlight == 0, await fixture.store.waiting == 0 { await Task.yield() }

            XCTAssertNil(processor.processAtOnce([VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])], on: fixture.mutator))

            _ = await page.value
            XCTAssertEqual(try fixture.lane.takeReplies().compactMap(\.event?.name), ["SetPage"])
        }
    }
}
