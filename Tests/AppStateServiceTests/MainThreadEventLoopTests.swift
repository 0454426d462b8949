@testable import AppStateService
import NIOCore
import NIOPosix
import XCTest

/// The daemon's one thread: the main actor runs on the event loop the main thread became, so
/// a change is written to its watchers without waking another thread.
final class MainThreadEventLoopTests: XCTestCase {
    private struct Refused: Error, Equatable {}

    func testRun_whenTheBodyRuns_thenTheMainActorIsOnTheLoopItWasGiven() throws {
        let onLoop = try MainThreadEventLoop.run { loop in loop.inEventLoop }
        XCTAssertTrue(onLoop)
    }

    func testRun_whenTheBodyAwaitsAnotherThread_thenItResumesOnTheLoopAndItsValueIsReturned() throws {
        let (value, onLoop) = try MainThreadEventLoop.run { loop in
            let value = try await NIOThreadPool.singleton.runIfActive { 41 + 1 }
            return (value, loop.inEventLoop)
        }
        XCTAssertEqual(value, 42)
        XCTAssertTrue(onLoop)
    }

    func testRun_whenTheBodyUsesTheLoop_thenItsTasksRunBetweenTheMainActorsJobs() throws {
        let order = try MainThreadEventLoop.run { loop in
            var order: [String] = []
            let scheduled = loop.scheduleTask(in: .milliseconds(1)) { "loop" }
            order.append(try await scheduled.futureResult.get())
            order.append("main actor")
            return order
        }
        XCTAssertEqual(order, ["loop", "main actor"])
    }

    func testRun_whenTheBodyThrows_thenRunThrowsItOnceTheLoopHasStopped() {
        XCTAssertThrowsError(try MainThreadEventLoop.run { _ -> Int in throw Refused() }) { error in
            XCTAssertEqual(error as? Refused, Refused())
        }
        XCTAssertNil(MultiThreadedEventLoopGroup.currentEventLoop, "the thread is no longer a loop")
    }
}
