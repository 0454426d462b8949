import AppStateCore
import AppStateIPC
@testable import AppStateService
import StateContainers
import TestSupport
import XCTest

/// A state that cannot be stored refuses the change that produced it; it never reaches the
/// disk as an empty or partial file.
final class RequestProcessorStorageTests: XCTestCase {
    @MainActor func testProcess_whenTheStateCannotBeEncoded_thenStorageFailureTheChangeUndoneAndNothingWritten() async throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path)
        let host = try TreeHost(file: TreeFile.default, clock: ManualClock())
        host.makeVisible()
        // A session start that is not a finite number cannot be written as JSON.
        try host.restore(StateDocument(trees: [
            "default": RestorationDocument(controllers: ["session": ["user": "ada", "since": .number(.nan)]]),
        ]))
        let (logger, messages) = RecordingLogHandler.logger()
        let processor = RequestProcessor(host: host, store: store, logger: logger)
        let pages = try XCTUnwrap(host.trees.first?.root.descendant(atPath: "session/home/pages") as? PaginatedController)

        let replies = await processor.process([
            try VarlinkCall(frame: Array(#"{"method":"io.appstate.SetPage","parameters":{"index":2}}"#.utf8)),
        ], on: connection())

        XCTAssertEqual(replies.first??.error, "io.appstate.StorageFailure")
        XCTAssertEqual(pages.currentIndex, 0, "the refused change is undone")
        XCTAssertNil(try store.load(), "nothing was written, not even an empty file")
        let failures = messages.at(.error)
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.hasPrefix("storage failure: the state cannot be written as JSON") == true, "\(failures)")
    }

    private func connection() -> ConnectionContext {
        ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())
    }
}
