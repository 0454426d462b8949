import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Ends the test run, naming the test in progress, when no test has finished for a while,
/// so that a test that hangs fails the run where it hangs instead of holding it until CI's
/// time limit. `APPSTATE_TEST_WATCHDOG_SECONDS` sets the while (default 300).
public final class TestWatchdog: NSObject, XCTestObservation, @unchecked Sendable {
    private static let shared = TestWatchdog()
    private let lock = NSLock()
    private var installed = false
    private var current: String?
    private var lastProgress = ContinuousClock.now
    private let limit: Duration

    private override init() {
        let seconds = ProcessInfo.processInfo.environment["APPSTATE_TEST_WATCHDOG_SECONDS"].flatMap(Int.init) ?? 300
        limit = .seconds(max(seconds, 1))
    }

    /// Starts watching, once per process; later calls do nothing.
    public static func install() {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        guard !shared.installed else { return }
        shared.installed = true
        shared.lastProgress = .now
        XCTestObservationCenter.shared.addTestObserver(shared)
        let thread = Thread { shared.watch() }
        thread.name = "test watchdog"
        thread.start()
    }

    public func testCaseWillStart(_ testCase: XCTestCase) {
        lock.withLock {
            current = testCase.name
            lastProgress = .now
        }
    }

    public func testCaseDidFinish(_ testCase: XCTestCase) {
        lock.withLock {
            current = nil
            lastProgress = .now
        }
    }

    private func watch() {
        let interval = min(limit / 4, .seconds(10))
        while true {
            Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
            let (stalled, test) = lock.withLock { (ContinuousClock.now - lastProgress > limit, current) }
            guard stalled else { continue }
            let message = "test watchdog: no test finished for \(limit); in progress: \(test ?? "none (between tests)")\n"
            fflush(nil)
            _ = message.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
            _exit(70)
        }
    }
}

/// The base of the suite's test cases: each class's first test makes sure the
/// ``TestWatchdog`` watches the run.
open class AppStateTestCase: XCTestCase {
    override open class func setUp() {
        super.setUp()
        TestWatchdog.install()
    }
}
