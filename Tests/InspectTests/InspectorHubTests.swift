import AppStateCore
import AppStateIPC
import AppStateInspectKit
import Synchronization
import TestSupport
import XCTest

final class InspectorHubTests: AppStateTestCase {
    /// What one viewer received, as (event name, JSON data) pairs.
    private final class Viewer: Sendable {
        private let received = Mutex<[(String, String)]>([])

        var messages: [(name: String, data: String)] { received.withLock { $0 } }
        var names: [String] { messages.map(\.name) }

        func receive(_ text: String) {
            var name = ""
            var data = ""
            for line in text.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                if line.hasPrefix("retry: ") { name = "retry" }
            }
            received.withLock { $0.append((name, data)) }
        }

        func json(_ index: Int) throws -> JSONValue {
            try JSONValue(jsonText: messages[index].data)
        }
    }

    private func root(current: String) -> Node {
        Node(
            path: "root", identifier: "root", type: "PaginatedController", appearance: .appeared,
            frame: Rect(x: 0, y: 0, width: 100, height: 100), onScreen: true, current: current,
            children: ["a", "b"].map { Node(path: "root/\($0)", identifier: $0, type: "Controller") })
    }

    private func event(_ name: String, current: String) -> Event {
        Event(tree: "default", name: name, path: "root", current: "root/\(current)")
    }

    func testSubscribe_whenLate_thenGetsTheCurrentEntryFirstThenTheHistoryThenTheStatusAndIdleState() throws {
        let hub = InspectorHub()
        hub.publishStatus(connected: true, message: "following /run/x")
        hub.publish(event: nil, root: root(current: "a"), receivedAt: 1)
        hub.publish(event: event("SetPage", current: "b"), root: root(current: "b"), receivedAt: 2)
        let viewer = Viewer()
        _ = hub.subscribe(viewer.receive)
        XCTAssertEqual(viewer.names, ["retry", "snapshot", "history", "status", "idle", "frontends"])
        XCTAssertEqual(try viewer.json(1)["name"], "SetPage")
        XCTAssertEqual(try viewer.json(1)["current"], "root/b")
        guard case .array(let entries) = try viewer.json(2)["entries"] else { return XCTFail("no entries") }
        XCTAssertEqual(entries.map { $0["seq"] }, [1, 2])
        XCTAssertEqual(entries.map { $0["name"] }, ["Snapshot", "SetPage"])
        XCTAssertEqual(entries.map { $0["svg"] }, [nil, nil], "the history lists summaries, without the drawings")
        let whole = try JSONValue(jsonText: try XCTUnwrap(hub.entry(sequence: 1)))
        XCTAssertEqual(whole["name"], "Snapshot")
        guard case .string(let svg) = whole["svg"] else { return XCTFail("entry 1 has no drawing: \(whole)") }
        XCTAssertTrue(svg.contains(#"data-current-path="root/a""#), svg)
        XCTAssertEqual(try viewer.json(3), ["connected": true, "message": "following /run/x"])
    }

    func testPublish_whenSubscribed_thenEachChangeCarriesTheWireframeTheTreeAndWhatChanged() throws {
        let hub = InspectorHub()
        hub.publish(event: nil, root: root(current: "a"), receivedAt: 1)
        let viewer = Viewer()
        let number = hub.subscribe(viewer.receive)
        hub.publish(event: event("SetPage", current: "b"), root: root(current: "b"), receivedAt: 1_795_000_000_000.5)
        XCTAssertEqual(viewer.names.last, "change")
        let change = try viewer.json(viewer.messages.count - 1)
        XCTAssertEqual(change["seq"], 2)
        XCTAssertEqual(change["path"], "root")
        XCTAssertEqual(change["receivedAt"], 1_795_000_000_000.5)
        XCTAssertEqual(change["changes"], [["path": "root", "kind": "changed", "fields": [["name": "current", "before": "a", "after": "b"]]]])
        guard case .string(let svg) = change["svg"], case .string(let tree) = change["tree"] else { return XCTFail("\(change)") }
        XCTAssertTrue(svg.hasPrefix("<svg "), svg)
        XCTAssertTrue(tree.hasPrefix("root PaginatedController"), tree)
        hub.unsubscribe(number)
        hub.publish(event: event("SetPage", current: "a"), root: root(current: "a"), receivedAt: 3)
        XCTAssertEqual(viewer.names.filter { $0 == "change" }.count, 1, "nothing after unsubscribing")
    }

    func testPublish_whenPastCapacity_thenKeepsOnlyTheNewestEntries() throws {
        let hub = InspectorHub(capacity: 1_000)
        for index in 0..<1_005 {
            hub.publish(
                event: index == 0 ? nil : event("SetPage", current: "a"), root: root(current: index % 2 == 0 ? "a" : "b"),
                receivedAt: Double(index))
        }
        let viewer = Viewer()
        _ = hub.subscribe(viewer.receive)
        guard case .array(let entries) = try viewer.json(2)["entries"] else { return XCTFail("no entries") }
        XCTAssertEqual(entries.count, 1_000)
        XCTAssertEqual(entries.first?["seq"], 6)
        XCTAssertEqual(entries.last?["seq"], 1_005)
        XCTAssertNil(hub.entry(sequence: 5))
        XCTAssertNil(hub.entry(sequence: 1_006))
        XCTAssertEqual(try JSONValue(jsonText: try XCTUnwrap(hub.entry(sequence: 6)))["seq"], 6)
        XCTAssertEqual(try JSONValue(jsonText: try XCTUnwrap(hub.entry(sequence: 1_005)))["seq"], 1_005)
    }

    func testSubscribe_whenNothingWasPublished_thenGetsOnlyTheStatusAndNoIdleSteps() {
        let viewer = Viewer()
        _ = InspectorHub().subscribe(viewer.receive)
        XCTAssertEqual(viewer.names, ["retry", "status", "idle", "frontends"])
        XCTAssertEqual(viewer.messages[1].data, #"{"connected":false,"message":"connecting to appstated"}"#)
        XCTAssertEqual(viewer.messages[2].data, #"{"inhibitors":[]}"#)
        XCTAssertEqual(viewer.messages[3].data, #"{"frontEnds":[]}"#)
    }

    func testPublishIdle_whenItChanges_thenEveryViewerIsToldOnce() throws {
        let hub = InspectorHub()
        let viewer = Viewer()
        _ = hub.subscribe(viewer.receive)
        let idle = IdleState(tree: "default", idleSeconds: 42, stepsFired: 0, nextStep: "lock", nextStepInSeconds: 18, inhibitors: 0)
        hub.publishIdle(idle, inhibitors: [])
        hub.publishIdle(idle, inhibitors: [])
        hub.publishIdle(idle, inhibitors: [Inhibitor(tree: "default", uid: 1000, pid: 7, why: "card payment", heldSeconds: 1)])
        XCTAssertEqual(viewer.names, ["retry", "status", "idle", "frontends", "idle", "idle"], "an unchanged state is not sent again")
        XCTAssertEqual(try viewer.json(4)["idle"]?["nextStep"], "lock")
        XCTAssertEqual(try viewer.json(5)["inhibitors"]?[0]?["why"], "card payment")
    }

    func testPublishFrontEnds_whenTheyChange_thenEveryViewerIsToldOnceAndALateViewerGetsTheList() throws {
        let hub = InspectorHub()
        let viewer = Viewer()
        _ = hub.subscribe(viewer.receive)
        let kiosk = FrontEnd(tree: "default", kind: "kiosk", name: "appstate-kiosk 4242", state: "live", reloads: 2, restarts: 0)
        hub.publishFrontEnds([kiosk])
        hub.publishFrontEnds([kiosk])
        var down = kiosk
        down.state = "down"
        down.reason = "did not report within 10 s"
        hub.publishFrontEnds([down])
        XCTAssertEqual(viewer.names, ["retry", "status", "idle", "frontends", "frontends", "frontends"], "an unchanged list is not sent again")
        XCTAssertEqual(try viewer.json(4)["frontEnds"]?[0]?["state"], "live")
        XCTAssertEqual(try viewer.json(5)["frontEnds"]?[0]?["reason"], "did not report within 10 s")
        let late = Viewer()
        _ = hub.subscribe(late.receive)
        XCTAssertEqual(late.names.last, "frontends")
        XCTAssertEqual(try late.json(late.messages.count - 1)["frontEnds"]?[0]?["name"], "appstate-kiosk 4242")
    }
}
