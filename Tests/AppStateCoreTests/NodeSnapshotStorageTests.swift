import Foundation
import TestSupport
import XCTest

@testable import AppStateCore

/// A snapshot node keeps its members in a shared box, yet behaves as the value it was when
/// its members were stored: a copy that changes leaves the original as it was, and nodes
/// encode, decode, compare and hash by their members.
final class NodeSnapshotStorageTests: AppStateTestCase {
    func testSet_whenACopySharesTheNode_changesTheCopyOnly() {
        let original = node()
        var copy = original
        copy.title = "Changed"
        copy.pageIndex = 1
        copy.children[0].onScreen = false
        XCTAssertEqual(original.title, "Pages")
        XCTAssertEqual(original.pageIndex, 2)
        XCTAssertTrue(original.children[0].onScreen)
        XCTAssertEqual(copy.title, "Changed")
        XCTAssertEqual(copy.pageIndex, 1)
        XCTAssertFalse(copy.children[0].onScreen)
        XCTAssertEqual(original, node())
        XCTAssertNotEqual(copy, original)
    }

    func testIsIdentical_whenCopied_thenTrue_andOnceEitherChanges_thenFalse() {
        let original = node()
        var copy = original
        XCTAssertTrue(copy.isIdentical(to: original))
        XCTAssertFalse(node().isIdentical(to: original), "equal nodes built apart are two boxes")
        copy.locked = true
        XCTAssertFalse(copy.isIdentical(to: original))
    }

    func testEquality_whenBuiltApartWithEqualMembers_thenEqualWithEqualHashes() {
        XCTAssertEqual(node(), node())
        XCTAssertEqual(node().hashValue, node().hashValue)
        var other = node()
        other.children[0].contentInset = Insets(top: 0, left: 0, bottom: 1, right: 0)
        XCTAssertNotEqual(other, node())
        XCTAssertEqual(Set([node(), node(), other]).count, 2)
    }

    func testCodable_whenEncodedAndDecoded_thenTheSameNode_andAbsentMembersLeftOut() throws {
        let data = try JSONEncoder().encode(node())
        XCTAssertEqual(try JSONDecoder().decode(NodeSnapshot.self, from: data), node())
        // Every member is written when present: one added to the node's box is encoded too.
        let encoded = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(encoded.keys), Set(Mirror(reflecting: node().storage.members).children.compactMap(\.label)))
        let leaf = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])["children"] as? [[String: Any]]
        XCTAssertEqual(
            leaf?.first.map { Set($0.keys) },
            [
                "path", "type", "identifier", "appearance", "frame", "contentInset", "onScreen", "children",
            ])
    }

    func testDecode_whenARequiredMemberIsMissing_thenThrows() {
        let json = Data(
            #"{"path":"a","type":"Controller","identifier":"a","appearance":"appeared","onScreen":true,"frame":{"x":0,"y":0,"width":1,"height":1},"contentInset":{"top":0,"left":0,"bottom":0,"right":0}}"#
                .utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(NodeSnapshot.self, from: json)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "children")
        }
    }

    func testDescription_whenPrinted_thenShowsTheMembersInTheirOrder() {
        let printed = String(describing: node().children[0])
        XCTAssertTrue(
            printed.hasPrefix(#"NodeSnapshot(path: "home/pages/settings", identifier: "settings", type: "Controller", title: nil"#), printed)
        XCTAssertEqual(
            Mirror(reflecting: node()).children.compactMap(\.label),
            Mirror(reflecting: node().storage.members).children.compactMap(\.label))
    }

    private func node() -> NodeSnapshot {
        NodeSnapshot(
            path: "home/pages", identifier: "pages", type: "PaginatedController", title: "Pages", url: "https://kiosk.example/pages",
            appearance: .appeared, frame: Rect(x: 0, y: 0, width: 1280, height: 800), onScreen: true,
            current: "settings", pageIndex: 2, pageCount: 3, user: "ada", locked: false, menuVisible: true,
            keyboardOverlap: 300, contentState: "render", collapsed: true, offline: "file:///srv/kiosk/offline.html", blanked: true,
            presented: true,
            children: [
                NodeSnapshot(
                    path: "home/pages/settings", identifier: "settings", type: "Controller",
                    appearance: .appeared, onScreen: true)
            ]
        )
    }
}
