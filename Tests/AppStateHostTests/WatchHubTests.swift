import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import TestSupport
import XCTest

@testable import AppStateHost

/// The fan-out of watch events: each change encoded once, one hand-over per lane with all
/// its watchers, closed watchers forgotten.
final class WatchHubTests: AppStateTestCase {
    @MainActor func testPublish_whenWatchersShareLanes_thenOneSendPerLaneWithAllItsWatchersAndTheSameBytes() async {
        let hub = WatchHub()
        let (first, second) = (RecordingLane(), RecordingLane())
        let watchers = [RecordingWatcher(lane: first), RecordingWatcher(lane: first), RecordingWatcher(lane: second)]
        for watcher in watchers { hub.add(watcher, tree: "main", subscription: Self.everything, root: root()) }

        hub.publish(event(), root: root())

        XCTAssertEqual(first.sends.map { $0.watchers.map(ObjectIdentifier.init) }, [[ObjectIdentifier(watchers[0]), ObjectIdentifier(watchers[1])]])
        XCTAssertEqual(second.sends.map { $0.watchers.map(ObjectIdentifier.init) }, [[ObjectIdentifier(watchers[2])]])
        let frame = first.sends[0].frame
        XCTAssertEqual(second.sends[0].frame, frame)
        let reply = try? VarlinkReply(frame: Array(frame.dropLast()))
        XCTAssertEqual(frame.last, 0)
        XCTAssertEqual(reply?.continues, true)
        XCTAssertEqual(reply?.parameters["event"]?.objectValue?["name"], .string("SetPage"))
    }

    @MainActor func testPublish_whenAWatcherClosed_thenForgottenAndNotCounted() async {
        let hub = WatchHub()
        let lane = RecordingLane()
        let (open, closed) = (RecordingWatcher(lane: lane), RecordingWatcher(lane: lane))
        hub.add(open, tree: "main", subscription: Self.everything, root: root())
        hub.add(closed, tree: "main", subscription: Self.everything, root: root())
        closed.isClosed = true
        XCTAssertEqual(hub.count, 1)

        hub.publish(event(), root: root())
        open.isClosed = true
        hub.publish(event(), root: root())

        XCTAssertEqual(
            lane.sends.map { $0.watchers.map(ObjectIdentifier.init) }, [[ObjectIdentifier(open)]],
            "nothing is sent when no watcher is left")
        XCTAssertEqual(hub.count, 0)
    }

    @MainActor func testPublish_whenAnotherTreeChanged_thenItsWatchersOnlyAreSentTo() async {
        let hub = WatchHub()
        let lane = RecordingLane()
        hub.add(RecordingWatcher(lane: lane), tree: "other", subscription: Self.everything, root: root())
        hub.publish(event(), root: root())
        XCTAssertTrue(lane.sends.isEmpty)
    }

    @MainActor func testCloseAll_thenEveryWatcherIsClosedAndForgotten() async {
        let hub = WatchHub()
        let watchers = [RecordingWatcher(lane: RecordingLane()), RecordingWatcher(lane: RecordingLane())]
        hub.add(watchers[0], tree: "main", subscription: Self.everything, root: root())
        hub.add(watchers[1], tree: "other", subscription: Self.everything, root: root())
        hub.closeAll()
        XCTAssertEqual(watchers.map(\.closeCount), [1, 1])
        XCTAssertEqual(hub.count, 0)
    }

    // MARK: What each subscription is sent

    @MainActor func testPublish_whenWatchersAskForChanges_thenTheChangedMembersOnlyAndTheirCopyBecomesTheTree() async throws {
        let hub = WatchHub()
        let lane = RecordingLane()
        let before = tree(page: 0)
        hub.add(RecordingWatcher(lane: lane), tree: "main", subscription: Self.everything, root: before)

        let after = tree(page: 1)
        hub.publish(event(), root: after)

        let reply = try firstReply(lane)
        XCTAssertNil(reply.root)
        XCTAssertNil(reply.changed, "no list of children changed")
        XCTAssertNil(reply.removed)
        XCTAssertEqual(reply.patches?["root/pages"], ["current": "two", "pageIndex": 1], "the pages changed, the menu did not")
        XCTAssertEqual(reply.patches?["root/pages/one"], ["onScreen": false])
        XCTAssertEqual(reply.patches?.keys.sorted(), ["root/pages", "root/pages/one", "root/pages/two"])
        XCTAssertEqual(try before.applying(reply), after)
    }

    @MainActor func testPublish_whenWatchersAskForSubtrees_thenTheChangedSubtreeWholeAndTheirCopyBecomesTheTree() async throws {
        let hub = WatchHub()
        let lane = RecordingLane()
        let before = tree(page: 0)
        hub.add(RecordingWatcher(lane: lane), tree: "main", subscription: WatchSubscription(path: nil, full: false, subtrees: true), root: before)

        let after = tree(page: 1)
        hub.publish(event(), root: after)

        let reply = try firstReply(lane)
        XCTAssertNil(reply.root)
        XCTAssertNil(reply.patches)
        XCTAssertEqual(reply.changed?.map(\.path), ["root/pages"], "the pages changed, the menu did not")
        XCTAssertEqual(reply.removed, [])
        XCTAssertEqual(try before.applying(reply), after)
    }

    @MainActor func testPublish_whenWatchersAskForTheWholeTree_thenEveryReplyCarriesIt() async throws {
        let hub = WatchHub()
        let lane = RecordingLane()
        hub.add(RecordingWatcher(lane: lane), tree: "main", subscription: WatchSubscription(path: nil, full: true), root: tree(page: 0))
        hub.publish(event(), root: tree(page: 1))
        let reply = try firstReply(lane)
        XCTAssertEqual(reply.root, tree(page: 1))
        XCTAssertNil(reply.changed)
    }

    @MainActor func testPublish_whenASubtreeIsFollowed_thenOnlyChangesUnderItAreSent() async throws {
        let hub = WatchHub()
        let (pages, menu) = (RecordingLane(), RecordingLane())
        hub.add(RecordingWatcher(lane: pages), tree: "main", subscription: WatchSubscription(path: "root/pages", full: false), root: tree(page: 0))
        hub.add(RecordingWatcher(lane: menu), tree: "main", subscription: WatchSubscription(path: "root/menu", full: true), root: tree(page: 0))

        hub.publish(event(), root: tree(page: 1))

        let reply = try firstReply(pages)
        XCTAssertEqual(reply.patches?.keys.sorted(), ["root/pages", "root/pages/one", "root/pages/two"])
        XCTAssertTrue(menu.sends.isEmpty, "nothing under the menu changed")
    }

    @MainActor func testPublish_whenTheFollowedSubtreeIsGone_thenItsPathIsRemoved() async throws {
        let hub = WatchHub()
        let lane = RecordingLane()
        hub.add(RecordingWatcher(lane: lane), tree: "main", subscription: WatchSubscription(path: "root/menu", full: true), root: tree(page: 0))
        var without = tree(page: 0)
        without.children.removeLast()
        hub.publish(event(), root: without)
        let reply = try firstReply(lane)
        XCTAssertEqual(reply.removed, ["root/menu"])
        XCTAssertNil(reply.root)
    }

    private static let everything = WatchSubscription(path: nil, full: false)

    private func firstReply(_ lane: RecordingLane) throws -> Watch.Reply {
        let frame = try XCTUnwrap(lane.sends.first?.frame)
        return try Watch.Reply(parameters: VarlinkReply(frame: Array(frame.dropLast())).parameters)
    }

    private func event() -> Event {
        Event(tree: "main", name: "SetPage", path: "root/pages", current: "root/pages/two")
    }

    private func root() -> Node {
        Node(path: "pages", identifier: "pages", type: "PaginatedController")
    }

    /// A root with a paginated container of two pages and a menu beside it.
    private func tree(page: Int) -> Node {
        let pages = ["one", "two"].enumerated().map { index, name in
            Node(path: "root/pages/\(name)", identifier: name, type: "Controller", onScreen: index == page)
        }
        return Node(
            path: "root", identifier: "root", type: "Controller",
            children: [
                Node(
                    path: "root/pages", identifier: "pages", type: "PaginatedController", current: pages[page].identifier,
                    pageIndex: page, pageCount: 2, children: pages),
                Node(path: "root/menu", identifier: "menu", type: "MenuController", menuVisible: false),
            ])
    }
}
