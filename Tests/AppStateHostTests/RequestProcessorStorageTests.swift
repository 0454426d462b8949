import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// A state that cannot be stored refuses the change that produced it; it never reaches the
/// disk as an empty or partial file.
final class RequestProcessorStorageTests: AppStateTestCase {
    @MainActor func testProcess_whenTheStateCannotBeEncoded_thenStorageFailureTheChangeUndoneAndNothingWritten() async throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path)
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        // A session start that is not a finite number cannot be written as JSON.
        try host.restore(
            StateDocument(trees: [
                "default": RestorationDocument(controllers: ["session": ["user": "ada", "since": .number(.nan)]])
            ]))
        let (logger, messages) = RecordingLogHandler.logger()
        let processor = RequestProcessor(host: host, store: store, logger: logger)
        let pages = try XCTUnwrap(host.trees.first?.root.descendant(atPath: "session/home/pages") as? PaginatedController)

        let replies = await processor.process(
            [
                try VarlinkCall(frame: Array(#"{"method":"io.appstate.SetPage","parameters":{"index":2}}"#.utf8))
            ], on: connection())

        XCTAssertEqual(replies.first??.error, "io.appstate.StorageFailure")
        XCTAssertEqual(pages.currentIndex, 0, "the refused change is undone")
        XCTAssertNil(try store.load(), "nothing was written, not even an empty file")
        let failures = messages.at(.error)
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.hasPrefix("storage failure: the state cannot be written as JSON") == true, "\(failures)")
    }

    @MainActor func testProcess_whenTheDiskIsFullThenHasSpace_thenStorageFailureTreesBackAtTheSavedStateThenSavedAgain() async throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path)
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let (logger, messages) = RecordingLogHandler.logger()
        let processor = RequestProcessor(host: host, store: store, logger: logger)
        let saved = await processor.process([VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: connection())
        XCTAssertNil(saved.first??.error)
        let acknowledged = try XCTUnwrap(try store.load())
        let pages = try XCTUnwrap(host.trees.first?.root.descendant(atPath: "session/home/pages") as? PaginatedController)
        // The journal's append goes to /dev/full, which fails with ENOSPC as a full file system does.
        let journal = directory.path + "/state.journal"
        try FileManager.default.createSymbolicLink(atPath: journal, withDestinationPath: "/dev/full")

        let refused = await processor.process(
            [VarlinkCall(method: SetPage.name, parameters: ["index": 2]), VarlinkCall(method: Logout.name)], on: connection())

        XCTAssertEqual(refused.map { $0?.error }, ["io.appstate.StorageFailure", "io.appstate.StorageFailure"])
        XCTAssertEqual(pages.currentIndex, 0, "the trees are back at the saved state")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["state.journal", "state.json"])
        // The space comes back.
        try FileManager.default.removeItem(atPath: journal)
        XCTAssertEqual(host.restorableState, try StateDocument.decode(acknowledged, path: store.path))
        XCTAssertEqual(try store.load(), acknowledged)
        XCTAssertTrue(
            messages.at(.error).contains { $0.hasPrefix("storage failure: write ") && $0.contains("No space left on device") },
            "\(messages.at(.error))")

        let again = await processor.process([VarlinkCall(method: SetPage.name, parameters: ["index": 1])], on: connection())

        XCTAssertNil(again.first??.error, "no restart needed once there is space")
        XCTAssertEqual(pages.currentIndex, 1)
        let stored = try StateDocument.decode(try XCTUnwrap(try store.load()), path: store.path)
        XCTAssertEqual(stored.trees["default"]?.controllers["session/home/pages"]?["index"], 1)
        XCTAssertEqual(stored.trees["default"]?.controllers["session"]?["user"], "ada")
    }

    private func connection() -> ConnectionContext {
        ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())
    }
}

/// Whatever order the writes of many batches complete in, the file ends at the state of the
/// last batch acknowledged: a later state is never overwritten by an earlier one.
final class RequestProcessorCommitOrderTests: AppStateTestCase {
    @MainActor func testProcess_whenManyDurableBatchesFollowEachOther_thenTheFileHoldsTheLastOnesState() async throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path)
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: store)
        let mutator = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())
        _ = await processor.process([VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: mutator)

        // Each batch is handed over before the earlier ones' writes are done, as a busy
        // connection's batches and other connections' are.
        var answered = 0
        let pages = 60
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<pages {
                let call = VarlinkCall(method: SetPage.name, parameters: ["index": .number(Double(index % 3))])
                processor.process([call], on: mutator) { replies in
                    XCTAssertNil(replies.first??.error)
                    answered += 1
                    if answered == pages { done.resume() }
                }
            }
        }

        let saved = try StateDocument.decode(try XCTUnwrap(try store.load()), path: store.path)
        XCTAssertEqual(saved, host.restorableState, "the file ends at the last acknowledged state")
        XCTAssertEqual(saved.trees["default"]?.controllers["session/home/pages"]?["index"], .number(Double((pages - 1) % 3)))
    }
}

/// Transient changes skip the store when nothing is being written, and wait their turn when
/// something is, so that watchers see changes in the order they were made.
final class RequestProcessorOrderTests: AppStateTestCase {
    @MainActor func testProcess_whenAKeyboardMoveFollowsAPageChangeStillBeingWritten_thenWatchersGetThemInThatOrder() async throws {
        let directory = try TemporaryDirectory()
        let writer = try GatedWriter()
        let store = StateStore(directory: directory.path, threadPool: writer.pool)
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: store)
        let peer = Peer(pid: 1, uid: 0, gid: 0, mayMutate: true)
        let lane = RecordingLane()
        _ = await processor.process(
            [VarlinkCall(method: Watch.name, more: true)], on: ConnectionContext(peer: peer, watcher: RecordingWatcher(lane: lane)))
        let mutator = ConnectionContext(peer: peer, watcher: ClosedWatcher())
        _ = await processor.process([VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: mutator)
        _ = try lane.takeReplies()

        writer.close()
        let page = Task { await processor.process([VarlinkCall(method: SetPage.name, parameters: ["index": 1])], on: mutator) }
        // The gate holds the page's write until the keyboard move has had to queue behind it.
        await writer.waitUntilWriting(store)
        let keyboard = Task {
            await processor.process([VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300, "duration": 0])], on: mutator)
        }
        while store.waiting == 0 { await Task.yield() }
        writer.open()
        _ = await page.value
        let moved = await keyboard.value

        XCTAssertNil(moved.first??.error)
        XCTAssertEqual(try lane.takeReplies().compactMap(\.event?.name), ["SetPage", "ShowKeyboard"])
        let alone = await processor.process([VarlinkCall(method: HideKeyboard.name, parameters: ["duration": 0])], on: mutator)
        XCTAssertNil(alone.first??.error)
        XCTAssertEqual(try lane.takeReplies().compactMap(\.event?.name), ["HideKeyboard"], "with nothing being written it goes out at once")
    }
}

/// What the journal is told of each change: saved changes at `info`, the keyboard and the
/// window size, which a UI moves many times a second, at `debug`.
final class RequestProcessorLogTests: AppStateTestCase {
    @MainActor func testProcess_whenChangesAreSavedOrTransient_thenLoggedAtInfoOrDebug() async throws {
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let directory = try TemporaryDirectory()
        let (logger, messages) = RecordingLogHandler.logger()
        let processor = RequestProcessor(host: host, store: StateStore(directory: directory.path), logger: logger)
        let connection = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

        _ = await processor.process(
            [
                VarlinkCall(method: Login.name, parameters: ["user": "ada"]),
                VarlinkCall(method: ShowKeyboard.name, parameters: ["height": 300, "duration": 0]),
                VarlinkCall(method: Resize.name, parameters: ["width": 800, "height": 600]),
                VarlinkCall(method: SetPage.name, parameters: ["index": 1]),
            ], on: connection)

        XCTAssertEqual(messages.at(.info), ["Login", "SetPage"])
        XCTAssertEqual(messages.at(.debug), ["ShowKeyboard", "Resize"])
    }
}
