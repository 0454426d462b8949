import Foundation
import TestSupport
import XCTest

/// Power loss, which kill -9 cannot show because the page cache survives it:
/// `appstate-crashtest --power-loss` records a short run of the real daemon under strace and,
/// at every point of the trace, starts the daemon on every state directory a power cut could
/// leave there, which must restore at least the state last acknowledged. A bug planted in the
/// recorded trace (the trace a daemon with that bug would make) must be caught.
final class ReliabilityPowerLossTests: AppStateTestCase {
    /// The tool's summary line, read.
    private struct Tally {
        let explored: Int
        let passed: Int
        let failed: Int
        let line: String

        init(_ output: String) throws {
            let line = try XCTUnwrap(output.split(separator: "\n").last { $0.contains("crash states explored") }, output).description
            self.line = line
            explored = try Self.count(in: line, before: "crash states explored")
            passed = try Self.count(in: line, before: "passed")
            failed = try Self.count(in: line, before: "failed")
        }

        /// The number just before `words` in `line`.
        private static func count(in line: String, before words: String) throws -> Int {
            let range = try XCTUnwrap(line.range(of: " " + words), line)
            return try XCTUnwrap(Int(line[..<range.lowerBound].split(separator: " ").last ?? ""), line)
        }
    }

    private func powerLoss(_ arguments: [String]) throws -> (status: Int32, output: String, tally: Tally) {
        let tool = Products.directory.appendingPathComponent("appstate-crashtest").path
        let run = try Command.run(tool, ["--power-loss", "--quiet", "--appstated", Products.appstated.path] + arguments)
        print(run.stdout)
        return (run.status, run.stdout + run.stderr, try Tally(run.stdout))
    }

    func testPowerLoss_whenEveryCrashStateOfARecordedRunIsReplayed_thenEachRestoresWhatWasAcknowledged() throws {
        // Blocks far smaller than a page, so that even this small state file tears in several places.
        let run = try powerLoss(["--mutations", "5", "--block-size", "128"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertGreaterThan(run.tally.explored, 0, run.tally.line)
        XCTAssertEqual(run.tally.passed, run.tally.explored, run.output)
        XCTAssertEqual(run.tally.failed, 0, run.output)
        Reliability.report("power loss: \(run.tally.line)")
    }

    func testPowerLoss_whenTheDirectoryFsyncIsLeftOut_thenAnAcknowledgedStateIsLost() throws {
        let run = try powerLoss(["--mutations", "3", "--plant", "no-directory-fsync"])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertGreaterThan(run.tally.failed, 0, run.output)
        // The state before the first mutation, back after its reply.
        XCTAssertTrue(run.output.contains("1 acknowledged: restored"), run.output)
        XCTAssertTrue(run.output.contains("(state 0), expected state 1 or 2"), run.output)
        Reliability.report("power loss, planted: \(run.tally.line)")
    }

    func testPowerLoss_whenTheJournalIsNotSynced_thenAnAcknowledgedChangeIsLost() throws {
        let run = try powerLoss(["--mutations", "3", "--plant", "no-journal-sync"])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertGreaterThan(run.tally.failed, 0, run.output)
        // The second mutation, the first appended to the journal, lost after its reply.
        XCTAssertTrue(run.output.contains("2 acknowledged: restored"), run.output)
        XCTAssertTrue(run.output.contains("(state 1), expected state 2 or 3"), run.output)
        Reliability.report("power loss, planted: \(run.tally.line)")
    }

    func testPowerLoss_whenTheRenameComesBeforeTheFsync_thenATornStateFileLosesAnAcknowledgedState() throws {
        // Five, so that the journal outgrows the snapshot and the snapshot is written again.
        let run = try powerLoss(["--mutations", "5", "--block-size", "128", "--plant", "rename-before-fsync"])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertGreaterThan(run.tally.failed, 0, run.output)
        // The torn file is set aside at start, its journal with it, so the daemon comes up at
        // the initial state although the mutations the compaction holds were acknowledged.
        // Which mutation compacts depends on the sizes of the values the run makes up.
        let lost = #/\(rename \.state\.json\.tmp to state\.json\), (\d+) acknowledged: restored .*\(state 0\), expected state (\d+) or/#
        let match = try XCTUnwrap(run.output.firstMatch(of: lost), run.output)
        XCTAssertGreaterThan(Int(match.1) ?? 0, 0, run.output)
        XCTAssertEqual(match.1, match.2, run.output)
        Reliability.report("power loss, planted: \(run.tally.line)")
    }
}
