import Foundation
import TestSupport
import XCTest

/// The suite's watchdog ends a run whose test hangs, naming the test, instead of letting the
/// run wait for CI's time limit.
final class TestWatchdogTests: AppStateTestCase {
    private static let childMarker = "APPSTATE_TEST_WATCHDOG_CHILD"

    func testWatchdog_whenATestNeverFinishes_thenTheRunEndsNamingIt() throws {
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childMarker] = "1"
        environment["APPSTATE_TEST_WATCHDOG_SECONDS"] = "2"
        let started = ContinuousClock.now
        let output = try runProcess(try TestPaths.testExecutable, ["EndToEndTests.TestWatchdogTests/testHangingChild"], environment: environment)

        XCTAssertEqual(output.status, 70, output.standardError)
        XCTAssertTrue(output.standardError.contains("in progress: TestWatchdogTests.testHangingChild"), output.standardError)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(60), "ended by the watchdog, not by the hang")
    }

    /// Hangs, as the child of the test above; skipped in the suite's own run.
    func testHangingChild() throws {
        guard ProcessInfo.processInfo.environment[Self.childMarker] != nil else {
            throw XCTSkip("runs only as the child of testWatchdog_whenATestNeverFinishes_thenTheRunEndsNamingIt")
        }
        while true { Thread.sleep(forTimeInterval: 1) }
    }
}
