import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// A batch that needs to wait for nothing is answered within the call that started it, its
/// watchers told before the call returns; anything that must wait is answered once it has.
final class RequestProcessorAtOnceTests: AppStateTestCase {
    /// Looks the peer's groups up, as for a user who is neither root nor the daemon's.
    private struct LookedUpAccess: MutationAccess {
        func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool { true }
    }

    @MainActor private struct Fixture {
        let processor: RequestProcessor
        let host: TreeHost
        let store: StateStore
        /// Kept for as long as the fixture: the store writes in it.
        let directory: TemporaryDirectory
        let lane = RecordingLane()
        let mutator = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

        init(directory: TemporaryDirectory, writer: GatedWriter? = nil) async throws {
            self.directory = directory
            store = writer.map { StateStore(directory: directory.path, threadPool: $0.pool) } ?? StateStore(directory: directory.path)
            host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
            host.makeVisible()
            processor = RequestProcessor(host: host, store: store)
            let watcher = ConnectionContext(peer: mutator.peer, watcher: RecordingWatcher(lane: lane))
            _ = await processor.process([VarlinkCall(method: Watch.name, more: true)], on: watcher)
        }

        var keyboardOverlap: Double? {
            (try? host.published.snapshots.root(named: nil))?.node(at: "session/login")?.keyboardOverlap
        }
    }

    /// Starts a batch and returns what it answered before `process` returned: nil when it
    /// had to wait.
    @MainActor private static func answeredAtOnce(
        _ processor: RequestProcessor, _ calls: [VarlinkCall],
        on connection: ConnectionContext
    ) -> [VarlinkReply?]? {
        var answered: [VarlinkReply?]?
        processor.process(calls, on: connection) { answered = $0 }
        return answered
    }

    /// Answers a batch: its replies, and whether they came before `process` returned.
    @MainActor private static func answer(
        _ processor: RequestProcessor, _ calls: [VarlinkCall],
        on connection: ConnectionContext
    ) async -> (replies: [VarlinkReply?], atOnce: Bool) {
        var returned = false
        return await withCheckedContinuation { continuation in
            processor.process(calls, on: connection) { continuation.resume(returning: ($0, !returned)) }
            returned = true
        }
    }

    @MainActor func testProcess_whenAKeyboardMoveWaitsForNothing_thenAnsweredWithItsWatchersToldBeforeItReturns() async throws {
        let fixture = try await Fixture(directory: TemporaryDirectory())
        let show = VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300, "duration": 0])

        let replies = Self.answeredAtOnce(fixture.processor, [show, VarlinkCall(method: GetCurrent.name)], on: fixture.mutator)

        XCTAssertEqual(replies?.count, 2)
        XCTAssertNil(replies?.first??.error)
        XCTAssertEqual(replies?.last??.parameters["path"], "session/login/login-form", "a read after the change reads it")
        XCTAssertEqual(try fixture.lane.takeReplies().compactMap(\.event?.name), ["ShowKeyboard"])
        XCTAssertEqual(fixture.keyboardOverlap, 300, "published for the readers")
    }

    @MainActor func testProcess_whenTheBatchHoldsADurableChange_thenAnsweredOnlyOnceItIsWritten() async throws {
        let fixture = try await Fixture(directory: TemporaryDirectory())
        let show = VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])
        let login = VarlinkCall(method: Login.name, parameters: ["user": "ada"])

        let (replies, atOnce) = await Self.answer(fixture.processor, [show, login], on: fixture.mutator)

        XCTAssertFalse(atOnce, "the login waited for its write")
        XCTAssertEqual(replies.last??.parameters["path"], "session/home")
        XCTAssertEqual(try fixture.lane.takeReplies().compactMap(\.event?.name), ["ShowKeyboard", "Login"])
        XCTAssertNotNil(try fixture.store.load(), "written before it was answered")
    }

    @MainActor func testProcess_whenThePeersAccessIsNotDecidedYet_thenTheLookupRunsFirstAndOnlyOnce() async throws {
        let fixture = try await Fixture(directory: TemporaryDirectory())
        let peer = Peer(pid: 7, uid: 1000, gid: 1000, access: PeerAccessDecision(access: LookedUpAccess(), pid: 7, uid: 1000, gid: 1000))
        let stranger = ConnectionContext(peer: peer, watcher: ClosedWatcher())
        let show = VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])

        XCTAssertNil(Self.answeredAtOnce(fixture.processor, [show], on: stranger), "the lookup runs off the main actor")
        let read = Self.answeredAtOnce(fixture.processor, [VarlinkCall(method: GetCurrent.name)], on: stranger)
        XCTAssertEqual(read?.first??.parameters["path"], "session/login/login-form", "a batch that only reads needs no decision")

        _ = await fixture.processor.process([show], on: stranger)
        XCTAssertNotNil(Self.answeredAtOnce(fixture.processor, [show], on: stranger), "decided once, at the first change")
    }

    @MainActor func testProcess_whenAnotherBatchsWriteIsUnderWay_thenAKeyboardMoveWaitsItsTurn() async throws {
        let writer = try GatedWriter()
        let fixture = try await Fixture(directory: TemporaryDirectory(), writer: writer)
        let processor = fixture.processor
        _ = await processor.process([VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: fixture.mutator)
        _ = try fixture.lane.takeReplies()
        writer.close()
        let page = Task { await processor.process([VarlinkCall(method: SetPage.name, parameters: ["index": 1])], on: fixture.mutator) }
        await writer.waitUntilWriting(fixture.store)

        let show = VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300])
        let keyboard = Task { await Self.answer(processor, [show], on: fixture.mutator) }
        while fixture.store.waiting == 0 { await Task.yield() }

        writer.open()
        _ = await page.value
        let atOnce = await keyboard.value.atOnce
        XCTAssertFalse(atOnce, "the keyboard move waited behind the page's write")
        XCTAssertEqual(try fixture.lane.takeReplies().compactMap(\.event?.name), ["SetPage", "ShowKeyboard"])
    }
}
