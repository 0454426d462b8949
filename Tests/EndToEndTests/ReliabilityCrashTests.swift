import Foundation
import TestSupport
import XCTest

/// Crash consistency in CI: a few trials of `appstate-crashtest` (kill -9 during concurrent
/// mutations from several clients, restart, compare with what was acknowledged). Large runs
/// are on demand: `scripts/crashtest 1000`.
final class ReliabilityCrashTests: AppStateTestCase {
    func testCrashTest_whenKilledAtRandomInstants_thenRestoresWhatWasAcknowledged() throws {
        let tool = Products.directory.appendingPathComponent("appstate-crashtest").path
        let trials = ProcessInfo.processInfo.environment["APPSTATE_CRASH_TRIALS"] ?? "5"
        let run = try Command.run(tool, ["--trials", trials, "--appstated", Products.appstated.path])
        print(run.stdout)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let summary = try XCTUnwrap(run.stdout.split(separator: "\n").last { $0.contains("trials,") }, run.stdout)
        XCTAssertTrue(summary.contains("\(trials) trials, 0 failed"), String(summary))
        // The trials did exercise the daemon: some mutations were acknowledged before each kill.
        let acknowledged =
            summary.split(separator: ",").first { $0.contains("acknowledged") }?
            .split(separator: " ").first.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThan(acknowledged, 0, String(summary))
        Reliability.report("crash: \(summary)")
    }
}
