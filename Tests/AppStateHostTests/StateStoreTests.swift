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

    func testCommit_whenNothingWasWritten_thenLoadReturnsNilAndAfterwardsTheState() async throws {
        let store = StateStore(directory: directory.path)
        XCTAssertNil(try store.load())
        try await store.commit(Array("first".utf8))
        XCTAssertEqual(try store.load(), Array("first".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "state.json" }
        XCTAssertEqual(leftovers, [], "the temporary file is renamed over the state file")
    }

    func testCommit_whenSixteenCommitsArriveDuringAWrite_thenTheyShareOneMoreWriteOfTheLatestState() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let store = StateStore(directory: directory.path, threadPool: pool)
        // Hold the only writer thread so that every commit below queues behind the first write.
        let gate = DispatchSemaphore(value: 0)
        pool.submit { _ in gate.wait() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.commit(Array("state 0".utf8)) }
            while store.inFlight < 1 { await Task.yield() }
            for index in 1...16 {
                group.addTask { try await store.commit(Array("state \(index)".utf8)) }
            }
            while store.waiting < 16 { await Task.yield() }
            gate.signal()
            try await group.waitForAll()
        }
        try await pool.shutdownGracefully()
        let writes = store.writes
        XCTAssertEqual(writes, 2, "the first write, then one group commit for the sixteen that waited")
        let stored = String(decoding: try XCTUnwrap(store.load()), as: UTF8.self)
        XCTAssertTrue(stored.hasPrefix("state ") && stored != "state 0", stored)
    }

    func testCommit_whenTheDiskIsFull_thenRefusedNothingLeftBehindAndTheNextGenerationIsWritten() async throws {
        let store = StateStore(directory: directory.path)
        try await store.commit(Array("first".utf8))
        // The temporary file opens onto /dev/full, whose writes fail with ENOSPC as a full
        // file system's do; the failed write removes it, as space coming back would.
        let temporary = directory.appendingPathComponent(".state.json.tmp").path
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: "/dev/full")
        do {
            try await store.commit(Array("second".utf8))
            XCTFail("a write to a full disk must fail")
        } catch {
            XCTAssertTrue(error.reason.description.contains("No space left on device"), error.reason.description)
            XCTAssertEqual(error.durableState, Array("first".utf8), "the state to roll back to")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["state.json"], "no temporary file holds the space")
        XCTAssertEqual(try store.load(), Array("first".utf8))
        do {
            try await store.commit(Array("second again".utf8))
            XCTFail("a state of the refused generation holds the refused change")
        } catch {
            XCTAssertEqual(error.durableState, Array("first".utf8))
        }
        try await store.commit(Array("third".utf8), generation: 1)
        XCTAssertEqual(try store.load(), Array("third".utf8))
    }

    func testLoadDocument_whenTheFileIsGarbageTwice_thenEachMovedAsideUnderTheTimeNeitherReplaced() throws {
        let store = StateStore(directory: directory.path)
        let garbage = [Array("{\"version\":1,\"trees\":".utf8), []]
        var kept: [String] = []
        for content in garbage {
            try Data(content).write(to: URL(fileURLWithPath: store.path))
            let loaded = try store.loadDocument(now: 1_767_268_800)
            XCTAssertNil(loaded.document)
            let setAside = try XCTUnwrap(loaded.setAside)
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
        XCTAssertNil(empty.setAside, "no file: nothing to set aside")
    }

    func testLoadDocument_whenTheFileCannotBeReadOrANewerBuildWroteIt_thenThrowsAndLeavesItInPlace() throws {
        let store = StateStore(directory: directory.path)
        let newer = Data(#"{"version":2,"trees":{}}"#.utf8)
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
        try await store.commit(try document.encoded())
        try Data("{\"ver".utf8).write(to: directory.appendingPathComponent(".state.json.tmp"))
        let loaded = try store.loadDocument()
        XCTAssertEqual(loaded.document, document)
        XCTAssertNil(loaded.setAside)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["state.json"])
    }

    func testCommit_whenDirectoryIsGone_thenThrowsAndKeepsNothingHalfWritten() async throws {
        let store = StateStore(directory: directory.appendingPathComponent("missing").path)
        do {
            try await store.commit(Array("x".utf8))
            XCTFail("a commit into a missing directory must fail")
        } catch {
            XCTAssertTrue(error.reason.description.contains("missing"), error.reason.description)
        }
    }
}
