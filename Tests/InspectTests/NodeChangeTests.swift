import AppStateCore
import AppStateIPC
import AppStateInspectKit
import TestSupport
import XCTest

final class NodeChangeTests: AppStateTestCase {
    private let window = Rect(x: 0, y: 0, width: 1280, height: 800)

    private func tree(overlap: Double, inset: Double, extra: Bool = false) -> Node {
        var children = [
            Node(
                path: "root/form", identifier: "form", type: "Controller", appearance: .appeared, frame: window,
                contentInset: Insets(top: 0, left: 0, bottom: inset, right: 0), onScreen: true)
        ]
        if extra { children.append(Node(path: "root/extra", identifier: "extra", type: "Controller")) }
        return Node(
            path: "root", identifier: "root", type: "KeyboardAwareController", appearance: .appeared, frame: window,
            onScreen: true, current: "form", keyboardOverlap: overlap, children: children)
    }

    func testChanges_whenTheTreesAreEqual_thenThereAreNone() {
        XCTAssertEqual(NodeChange.changes(from: tree(overlap: 0, inset: 0), to: tree(overlap: 0, inset: 0)), [])
    }

    func testChanges_whenTheKeyboardComes_thenListsOnlyTheTouchedMembersOfTheTouchedNodes() {
        let changes = NodeChange.changes(from: tree(overlap: 0, inset: 0), to: tree(overlap: 320, inset: 320))
        XCTAssertEqual(changes.map(\.path), ["root", "root/form"])
        XCTAssertEqual(changes.map(\.kind), [.changed, .changed])
        XCTAssertEqual(changes[0].fields, [NodeChange.Field(name: "keyboardOverlap", before: 0, after: 320)])
        XCTAssertEqual(changes[1].fields.map(\.name), ["contentInset"])
        XCTAssertEqual(changes[1].fields.first?.after?["bottom"], 320)
        XCTAssertEqual(changes[1].fields.first?.before?["bottom"], 0)
    }

    func testChanges_whenANodeAppearsOrDisappears_thenItIsAddedOrRemovedWithEveryMember() {
        let added = NodeChange.changes(from: tree(overlap: 0, inset: 0), to: tree(overlap: 0, inset: 0, extra: true))
        XCTAssertEqual(added.map(\.path), ["root/extra"])
        XCTAssertEqual(added.first?.kind, .added)
        XCTAssertTrue(added.first?.fields.allSatisfy { $0.before == nil } == true)
        XCTAssertEqual(added.first?.fields.first { $0.name == "identifier" }?.after, "extra")
        let removed = NodeChange.changes(from: tree(overlap: 0, inset: 0, extra: true), to: tree(overlap: 0, inset: 0))
        XCTAssertEqual(removed.map(\.kind), [.removed])
        XCTAssertTrue(removed.first?.fields.allSatisfy { $0.after == nil } == true)
    }

    func testJSON_whenAFieldAppears_thenHasNoBeforeMember() {
        let change = NodeChange(path: "a", kind: .changed, fields: [NodeChange.Field(name: "user", before: nil, after: "ada")])
        XCTAssertEqual(change.json, ["path": "a", "kind": "changed", "fields": [["name": "user", "after": "ada"]]])
    }
}
