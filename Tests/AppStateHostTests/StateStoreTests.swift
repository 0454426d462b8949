import Foundation
import NIOPosix
import ServicePorts
import StateContainers
import TestSupport
import XCTest

@testable import AppStateHost

final class StateStoreTests: AppStateTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("statestore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    /// A state whose session names `user`, beside a controller whose state never changes and
    /// makes the snapshot larger than a few records, which it then takes to compact.
    private func state(_ user: String) -> StateDocument {
        let filler = String(repeating: "x", count: 2048)
        return StateDocument(
            trees: ["default": RestorationDocument(controllers: ["session": ["user": .string(user)], "session/filler": ["text": .string(filler)]])])
    }

    /// Commits `next` as the processor does: the change from `previous`, and the whole state.
    private func commit(_ store: StateStore, _ next: StateDocument, after previous: StateDocument, generation: Int = 0) async throws {
        let change = StateChange(from: previous, to: next)
        try await store.commit(change.isEmpty ? nil : try change.encoded(), document: next, generation: generation)
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func testCommit_whenNothingWasWritten_thenTheFirstWritesTheSnapshotAndTheNextAppendToTheJournal() async throws {
        let store = StateStore(directory: directory.path)
        XCTAssertNil(try store.load())
        XCTAssertEqual(try store.loadDocument().document, nil)
        try await commit(store, state("ada"), after: StateDocument())
        XCTAssertEqual(try files(), ["state.json"], "the temporary file is renamed over the state file")
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: store.path))
        try await commit(store, state("grace"), after: state("ada"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path)), snapshot, "the snapshot is not written again")
        XCTAssertEqual(try files(), ["state.journal", "state.json"])
        XCTAssertEqual(try store.load(), try state("grace").encoded())
        XCTAssertEqual(try StateStore(directory: directory.path).loadDocument().document, state("grace"))
    }

    func testCommit_whenSixteenCommitsArriveDuringAWrite_thenTheyShareOneMoreWriteAndEndAtTheLatestState() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let store = StateStore(directory: directory.path, threadPool: pool)
        // Hold the only writer thread so that every commit below queues behind the first write.
        let gate = DispatchSemaphore(value: 0)
        pool.submit { _ in gate.wait() }
        let states = (0...16).map { state("user \($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            let first = try StateChange(from: StateDocument(), to: states[0]).encoded()
            group.addTask { try await store.commit(first, document: states[0]) }
            while store.inFlight < 1 { await Task.yield() }
            // Handed over in order, as the main actor does; each waits in a task of its own.
            for index in 1...16 {
                let change = try StateChange(from: states[index - 1], to: states[index]).encoded()
                group.addTask { try await store.commit(change, document: states[index]) }
                while store.waiting < index { await Task.yield() }
            }
            gate.signal()
            try await group.waitForAll()
        }
        try await pool.shutdownGracefully()
        XCTAssertEqual(store.writes, 2, "the first write, then one group commit for the sixteen that waited")
        XCTAssertEqual(try StateStore(directory: directory.path).loadDocument().document, states[16])
    }

    func testCommit_whenTheDiskIsFull_thenRefusedAndTheNextGenerationIsWritten() async throws {
        let store = StateStore(directory: directory.path)
        try await commit(store, state("first"), after: StateDocument())
        // The journal opens onto /dev/full, whose writes fail with ENOSPC as a full file
        // system's do.
        try FileManager.default.createSymbolicLink(atPath: store.journalPath, withDestinationPath: "/dev/full")
        do {
            try await commit(store, state("second"), after: state("first"))
            XCTFail("a write to a full disk must fail")
        } catch let error as StateStore.CommitFailure {
            XCTAssertTrue(error.reason.description.contains("No space left on device"), error.reason.description)
            XCTAssertEqual(error.durableState, state("first"), "the state to roll back to")
        }
        do {
            try await commit(store, state("second again"), after: state("second"))
            XCTFail("a state of the refused generation holds the refused change")
        } catch let error as StateStore.CommitFailure {
            XCTAssertEqual(error.durableState, state("first"))
        }
        try FileManager.default.removeItem(atPath: store.journalPath)
        XCTAssertEqual(try files(), ["state.json"], "no temporary file holds the space")
        try await commit(store, state("third"), after: state("first"), generation: 1)
        XCTAssertEqual(try StateStore(directory: directory.path).loadDocument().document, state("third"))
    }

    func testLoadDocument_whenTheJournalIsCutAtEveryByte_thenTheStateOfItsLastWholeRecordIsRestored() async throws {
        let store = StateStore(directory: directory.path)
        let users = ["ada", "grace", "edsger", "barbara"]
        try await commit(store, state(users[0]), after: StateDocument())
        var ends: [(length: Int, user: String)] = []
        for (previous, user) in zip(users, users.dropFirst()) {
            try await commit(store, state(user), after: state(previous))
            ends.append((try Data(contentsOf: URL(fileURLWithPath: store.journalPath)).count, user))
        }
        let journal = try Data(contentsOf: URL(fileURLWithPath: store.journalPath))
        for length in 0...journal.count {
            try journal.prefix(length).write(to: URL(fileURLWithPath: store.journalPath))
            let loaded = try StateStore(directory: directory.path).loadDocument()
            let expected = ends.last { $0.length <= length }?.user ?? users[0]
            XCTAssertEqual(loaded.document, state(expected), "the journal cut at \(length) of \(journal.count) bytes")
            XCTAssertEqual(loaded.setAside, [], "a torn tail is no damage")
            let kept = try Data(contentsOf: URL(fileURLWithPath: store.journalPath)).count
            XCTAssertEqual(kept, ends.last { $0.length <= length }?.length ?? (length < JournalFile.header.count ? 0 : JournalFile.header.count))
        }
        // The next change follows the last whole record, not the torn tail.
        try journal.prefix(ends[1].length + 5).write(to: URL(fileURLWithPath: store.journalPath))
        let reopened = StateStore(directory: directory.path)
        XCTAssertEqual(try reopened.loadDocument().document, state(users[2]))
        try await commit(reopened, state("niklaus"), after: state(users[2]))
        XCTAssertEqual(try StateStore(directory: directory.path).loadDocument().document, state("niklaus"))
    }

    func testLoadDocument_whenTheJournalIsGarbageOrNewer_thenGarbageIsSetAsideAndNewerStopsTheStart() async throws {
        let store = StateStore(directory: directory.path)
        try await commit(store, state("ada"), after: StateDocument())
        try await commit(store, state("grace"), after: state("ada"))
        let journal = try Data(contentsOf: URL(fileURLWithPath: store.journalPath))
        var newer = journal
        newer[JournalFile.header.count - 2] = JournalFile.currentVersion + 1
        try newer.write(to: URL(fileURLWithPath: store.journalPath))
        XCTAssertThrowsError(try StateStore(directory: directory.path).loadDocument()) { error in
            XCTAssertTrue("\(error)".contains("newer than this appstated reads"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.journalPath)), newer, "left in place")

        // A whole record whose payload is no change: the records before it are kept.
        let bad = journal + Data(JournalFile.frame(Array("not a change".utf8)))
        try bad.write(to: URL(fileURLWithPath: store.journalPath))
        let loaded = try StateStore(directory: directory.path).loadDocument(now: 1_767_268_800)
        XCTAssertEqual(loaded.document, state("grace"))
        XCTAssertEqual(loaded.setAside.map(\.path), [store.journalPath + ".corrupt-20260101T120000Z"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.journalPath + ".corrupt-20260101T120000Z")), bad)
        XCTAssertEqual(try StateStore(directory: directory.path).loadDocument().document, state("grace"), "written into the snapshot")

        try Data("garbage that is no journal".utf8).write(to: URL(fileURLWithPath: store.journalPath))
        let garbage = try StateStore(directory: directory.path).loadDocument(now: 1_767_268_800)
        XCTAssertEqual(garbage.document, state("grace"))
        XCTAssertEqual(garbage.setAside.map(\.path), [store.journalPath + ".corrupt-20260101T120000Z-2"])
        XCTAssertTrue(garbage.setAside.allSatisfy(\.problem.isCorrupt))
    }

    func testLoadDocument_whenTheSnapshotIsDamaged_thenItsJournalIsSetAsideWithIt() async throws {
        let store = StateStore(directory: directory.path)
        try await commit(store, state("ada"), after: StateDocument())
        try await commit(store, state("grace"), after: state("ada"))
        try Data("{\"version\":1,\"tre".utf8).write(to: URL(fileURLWithPath: store.path))
        let loaded = try StateStore(directory: directory.path).loadDocument(now: 1_767_268_800)
        XCTAssertNil(loaded.document)
        XCTAssertEqual(
            loaded.setAside.map(\.path), [store.path + ".corrupt-20260101T120000Z", store.journalPath + ".corrupt-20260101T120000Z"])
        XCTAssertEqual(try files(), ["state.journal.corrupt-20260101T120000Z", "state.json.corrupt-20260101T120000Z"])
    }

    func testCommit_whenTheJournalOutgrowsTheSnapshot_thenTheSnapshotIsWrittenAgainAndTheJournalEmptied() async throws {
        let store = StateStore(directory: directory.path)
        try await commit(store, state("ada"), after: StateDocument())
        // Each change a value larger than the state, so that a record outgrows the snapshot.
        let snapshotLength = try Data(contentsOf: URL(fileURLWithPath: store.path)).count
        let large = (0..<4).map { state(String(repeating: "\($0)", count: snapshotLength * (2 + $0))) }
        var previous = state("ada")
        for next in large {
            try await commit(store, next, after: previous)
            previous = next
        }
        // A commit of no change completes once the write under way, the compaction, is done.
        try await store.commit(nil, document: previous)
        let journal = try Data(contentsOf: URL(fileURLWithPath: store.journalPath))
        let snapshot = try StateDocument.decode(Array(try Data(contentsOf: URL(fileURLWithPath: store.path))), path: store.path)
        XCTAssertEqual(snapshot, large.last, "the snapshot was written again after the last record outgrew it")
        XCTAssertEqual(journal.count, 0, "and the journal emptied")
        XCTAssertEqual(try StateStore(directory: directory.path).loadDocument().document, large.last)
    }

    func testLoadDocument_whenTheFileIsGarbageTwice_thenEachMovedAsideUnderTheTimeNeitherReplaced() throws {
        let store = StateStore(directory: directory.path)
        let garbage = [Array("{\"version\":1,\"trees\":".utf8), []]
        var kept: [String] = []
        for content in garbage {
            try Data(content).write(to: URL(fileURLWithPath: store.path))
            let loaded = try store.loadDocument(now: 1_767_268_800)
            XCTAssertNil(loaded.document)
            let setAside = try XCTUnwrap(loaded.setAside.first)
            XCTAssertTrue(setAside.problem.isCorrupt, "\(setAside.problem)")
            XCTAssertTrue(setAside.problem.description.hasPrefix(store.path + " is not a valid state file"), "\(setAside.problem)")
            kept.append(setAside.path)
        }
        XCTAssertEqual(kept, [store.path + ".corrupt-20260101T120000Z", store.path + ".corrupt-20260101T120000Z-2"])
        for (path, content) in zip(kept, garbage) {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(content), path)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path))
        let empty = try store.loadDocument()
        XCTAssertNil(empty.document)
        XCTAssertEqual(empty.setAside, [], "no file: nothing to set aside")
    }

    func testLoadDocument_whenTheFileCannotBeReadOrANewerBuildWroteIt_thenThrowsAndLeavesItInPlace() throws {
        let store = StateStore(directory: directory.path)
        let newer = Data(#"{"version":3,"trees":{}}"#.utf8)
        try newer.write(to: URL(fileURLWithPath: store.path))
        XCTAssertThrowsError(try store.loadDocument()) { error in
            XCTAssertTrue("\(error)".contains("newer than this appstated reads"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path)), newer)
        // A directory in its place reads with EISDIR, an I/O error as EIO or EACCES would be.
        try FileManager.default.removeItem(atPath: store.path)
        try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: false)
        XCTAssertThrowsError(try store.loadDocument()) { error in
            XCTAssertFalse((error as? StorageError)?.isCorrupt ?? true, "\(error)")
            XCTAssertTrue("\(error)".contains("Is a directory"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["state.json"])
    }

    func testLoadDocument_whenACrashLeftATemporaryFile_thenItIsRemovedAndTheStateRead() async throws {
        let store = StateStore(directory: directory.path)
        let document = StateDocument(trees: ["default": RestorationDocument(controllers: ["session": ["user": "ada"]])])
        try await commit(store, document, after: StateDocument())
        try Data("{\"ver".utf8).write(to: directory.appendingPathComponent(".state.json.tmp"))
        let loaded = try store.loadDocument()
        XCTAssertEqual(loaded.document, document)
        XCTAssertEqual(loaded.setAside, [])
        XCTAssertEqual(try files(), ["state.json"])
    }

    func testCommit_whenDirectoryIsGone_thenThrowsAndKeepsNothingHalfWritten() async throws {
        let store = StateStore(directory: directory.appendingPathComponent("missing").path)
        do {
            try await commit(store, state("ada"), after: StateDocument())
            XCTFail("a commit into a missing directory must fail")
        } catch let error as StateStore.CommitFailure {
            XCTAssertTrue(error.reason.description.contains("missing"), error.reason.description)
        }
    }
}
