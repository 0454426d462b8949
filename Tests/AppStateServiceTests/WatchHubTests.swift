import AppStateCore
import AppStateIPC
@testable import AppStateService
import XCTest

/// The fan-out of watch events: each change encoded once, one hand-over per lane with all
/// its watchers, closed watchers forgotten.
final class WatchHubTests: XCTestCase {
    @MainActor func testPublish_whenWatchersShareLanes_thenOneSendPerLaneWithAllItsWatchersAndTheSameBytes() async {
        let hub = WatchHub()
        let (first, second) = (RecordingLane(), RecordingLane())
        let watchers = [RecordingWatcher(lane: first), RecordingWatcher(lane: first), RecordingWatcher(lane: second)]
        for watcher in watchers { hub.add(watcher, tree: "main") }

        hub.publish(event(), root: root())

        XCTAssertEqual(first.sends.map { $0.watchers.map(ObjectIdentifier.init) }, [[ObjectIdentifier(watchers[0]), ObjectIdentifier(watchers[1])]])
        XCTAssertEqual(second.sends.map { $0.watchers.map(ObjectIdentifier.init) }, [[ObjectIdentifier(watchers[2])]])
        let frame = first.sends[0].frame
        XCTAssertEqual(second.sends[0].frame, frame)
        let reply = try? VarlinkReply(frame: Array(frame.dropLast()))
        XCTAssertEqual(frame.last, 0)
        XCTAssertEqual(reply?.continues, true)
        XCTAssertEqual(reply?.parameters["event"]?.objectValue?["name"], .string("page.changed"))
    }

    @MainActor func testPublish_whenAWatcherClosed_thenForgottenAndNotCounted() async {
        let hub = WatchHub()
        let lane = RecordingLane()
        let (open, closed) = (RecordingWatcher(lane: lane), RecordingWatcher(lane: lane))
        hub.add(open, tree: "main")
        hub.add(closed, tree: "main")
        closed.isClosed = true
        XCTAssertEqual(hub.count, 1)

        hub.publish(event(), root: root())
        open.isClosed = true
        hub.publish(event(), root: root())

        XCTAssertEqual(lane.sends.map { $0.watchers.map(ObjectIdentifier.init) }, [[ObjectIdentifier(open)]],
                       "nothing is sent when no watcher is left")
        XCTAssertEqual(hub.count, 0)
    }

    @MainActor func testPublish_whenAnotherTreeChanged_thenItsWatchersOnlyAreSentTo() async {
        let hub = WatchHub()
        let lane = RecordingLane()
        hub.add(RecordingWatcher(lane: lane), tree: "other")
        hub.publish(event(), root: root())
        XCTAssertTrue(lane.sends.isEmpty)
    }

    @MainActor func testCloseAll_thenEveryWatcherIsClosedAndForgotten() async {
        let hub = WatchHub()
        let watchers = [RecordingWatcher(lane: RecordingLane()), RecordingWatcher(lane: RecordingLane())]
        hub.add(watchers[0], tree: "main")
        hub.add(watchers[1], tree: "other")
        hub.closeAll()
        XCTAssertEqual(watchers.map(\.closeCount), [1, 1])
        XCTAssertEqual(hub.count, 0)
    }

    private func event() -> Event {
        Event(tree: "main", name: "page.changed", path: "pages", current: "pages/two")
    }

    private func root() -> Node {
        Node(path: "pages", identifier: "pages", type: "PaginatedController")
    }
}

/// A lane that records what it is handed instead of hopping to a thread.
private final class RecordingLane: WatcherLane, @unchecked Sendable {
    private(set) var sends: [(frame: [UInt8], watchers: [RecordingWatcher])] = []

    func send(_ frame: [UInt8], to watchers: [RecordingWatcher]) {
        sends.append((frame, watchers))
    }
}

private final class RecordingWatcher: WatcherSink, @unchecked Sendable {
    let lane: RecordingLane
    var isClosed = false
    private(set) var closeCount = 0

    init(lane: RecordingLane) {
        self.lane = lane
    }

    func close() {
        closeCount += 1
        isClosed = true
    }
}
