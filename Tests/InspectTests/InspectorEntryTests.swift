import AppStateCore
import AppStateIPC
import AppStateInspectKit
import TestSupport
import XCTest

/// What an entry says of a presented controller: its path for the page's header, and the
/// drawings, which show it over the tree it is presented over.
final class InspectorEntryTests: AppStateTestCase {
    private let window = Rect(x: 0, y: 0, width: 100, height: 100)

    /// A root showing `a`, with `saver` (holding `inner`, which presents `sheet`) presented over it.
    private func presenting() -> Node {
        let sheet = Node(path: "root/saver/sheet", identifier: "sheet", type: "Controller", frame: window, onScreen: true, presented: true)
        let saver = Node(
            path: "root/saver", identifier: "saver", type: "PaginatedController", appearance: .appeared, frame: window, onScreen: true,
            current: "inner", presented: true,
            children: [Node(path: "root/saver/inner", identifier: "inner", type: "Controller"), sheet])
        return Node(
            path: "root", identifier: "root", type: "PaginatedController", current: "a",
            children: [Node(path: "root/a", identifier: "a", type: "Controller"), saver])
    }

    func testPresented_whenPresentationsNest_thenTheTopOneOnTheWayToTheCurrentPath() {
        let entry = InspectorEntry(sequence: 1, event: nil, root: presenting(), previous: nil, receivedAt: 0)

        XCTAssertEqual(entry.current, "root/saver/sheet")
        XCTAssertEqual(entry.presented, "root/saver/sheet")
        XCTAssertEqual(entry.summaryMembers["presented"], "root/saver/sheet")
    }

    func testPresented_whenNothingIsPresented_thenAbsentFromTheSummary() {
        let root = Node(path: "root", identifier: "root", type: "Controller", frame: window, onScreen: true)
        let entry = InspectorEntry(sequence: 1, event: nil, root: root, previous: nil, receivedAt: 0)

        XCTAssertNil(entry.presented)
        XCTAssertNil(entry.summaryMembers["presented"])
    }

    func testJSON_whilePresenting_thenTheDrawingsMarkThePresentedControllers() throws {
        let json = InspectorEntry(sequence: 1, event: nil, root: presenting(), previous: nil, receivedAt: 0).json

        guard case .string(let svg) = json["svg"], case .string(let tree) = json["tree"] else { return XCTFail("no drawings: \(json)") }
        XCTAssertTrue(svg.contains(#"data-path="root/saver" data-type="PaginatedController" data-presented="true""#), svg)
        XCTAssertTrue(tree.contains("saver PaginatedController 100×100+0+0 ▲ presented"), tree)
    }
}
