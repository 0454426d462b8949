import Foundation
import NIOPosix
import ServicePorts
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
