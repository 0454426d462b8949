import Foundation
import TestSupport
import XCTest

@testable import AppStateCore

/// What `Watch` sends instead of the whole tree: the members that changed (patches) or the
/// smallest changed subtrees, and the paths that are gone, which applied to the old snapshot
/// give the new one.
final class NodeSnapshotChangesTests: AppStateTestCase {
    func testChanges_whenNothingChanged_thenEmpty() {
        XCTAssertTrue(tree().changes(since: tree()).isEmpty)
    }

    func testChanges_whenOneLeafChanged_thenThatLeafOnly() {
        var new = tree()
        new.children[0].children[1].onScreen = true
        let changes = new.changes(since: tree())
        XCTAssertEqual(changes, NodeSnapshot.Changes(changed: [new.children[0].children[1]]))
        XCTAssertEqual(try tree().applying(changes, merging: merge), new)
    }

    func testChanges_whenAContainerAndItsChildrenChanged_thenTheContainersSubtreeOnce() {
        var new = tree()
        new.children[0].current = "b"
        new.children[0].children[0].onScreen = false
        new.children[0].children[1].onScreen = true
        XCTAssertEqual(new.changes(since: tree()).changed.map(\.path), ["root/stack"])
    }

    func testChanges_whenAChildIsGone_thenItsParentIsSentAndItsPathNamed() {
        var new = tree()
        new.children[0].children.removeLast()
        let changes = new.changes(since: tree())
        XCTAssertEqual(changes.changed.map(\.path), ["root/stack"])
        XCTAssertEqual(changes.removed, ["root/stack/b"])
        XCTAssertEqual(try tree().applying(changes, merging: merge), new)
    }

    func testChanges_whenAnyOneMemberOfALeafChanged_thenTheChangeIsSent() {
        let edits: [String: (inout NodeSnapshot) -> Void] = [
            "path": { $0.path += "x" }, "type": { $0.type += "x" }, "identifier": { $0.identifier += "x" },
            "title": { $0.title = "x" }, "url": { $0.url = "https://kiosk.example/x" }, "appearance": { $0.appearance = .appearing },
            "frame": { $0.frame = Rect(x: 1, y: 0, width: 0, height: 0) },
            "contentInset": { $0.contentInset = Insets(top: 1, left: 0, bottom: 0, right: 0) },
            "onScreen": { $0.onScreen.toggle() }, "current": { $0.current = "x" }, "pageIndex": { $0.pageIndex = 1 },
            "pageCount": { $0.pageCount = 1 }, "user": { $0.user = "x" }, "locked": { $0.locked = true },
            "menuVisible": { $0.menuVisible = true }, "keyboardOverlap": { $0.keyboardOverlap = 1 }, "contentState": { $0.contentState = "x" },
            "collapsed": { $0.collapsed = false }, "offline": { $0.offline = "file:///offline.html" }, "blanked": { $0.blanked = true },
            "presented": { $0.presented = true },
        ]
        // A member added to snapshots (in the node's shared box) must be compared too: it is
        // listed here, or this fails.
        let members = Mirror(reflecting: tree().storage.members).children.compactMap(\.label).filter { $0 != "children" }
        XCTAssertEqual(Set(members), Set(edits.keys))
        for (member, edit) in edits {
            var new = tree()
            edit(&new.children[1])
            let changes = new.changes(since: tree())
            XCTAssertFalse(changes.isEmpty, member)
            // A path says where a subtree goes: one that changed alone has nowhere to go.
            if member != "path" { XCTAssertEqual(try tree().applying(changes, merging: merge), new, member) }
        }
    }

    func testChanges_whenTheRootItselfChanged_thenTheWholeTree() {
        var new = tree()
        new.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(new.changes(since: tree()).changed, [new])
    }

    func testApplying_whenAppliedTwiceOrToUnknownPaths_thenTheSameTree() {
        var new = tree()
        new.children[1].title = "Other"
        let changes = new.changes(since: tree())
        XCTAssertEqual(try tree().applying(changes, merging: merge).applying(changes, merging: merge), new)
        let unknown = NodeSnapshot.Changes(
            changed: [NodeSnapshot(path: "root/nowhere/x", identifier: "x", type: "Controller")],
            removed: ["root/none", "elsewhere/stack"])
        XCTAssertEqual(try tree().applying(unknown, merging: merge), tree())
    }

    private func tree() -> NodeSnapshot {
        NodeSnapshot(
            path: "root", identifier: "root", type: "Controller",
            children: [
                NodeSnapshot(
                    path: "root/stack", identifier: "stack", type: "StackController", current: "a",
                    children: [
                        NodeSnapshot(path: "root/stack/a", identifier: "a", type: "Controller", onScreen: true),
                        NodeSnapshot(path: "root/stack/b", identifier: "b", type: "Controller"),
                    ]),
                NodeSnapshot(path: "root/other", identifier: "other", type: "Controller"),
            ])
    }

    // MARK: Patches

    func testPatches_whenOneLeafChanged_thenThatMemberOfThatLeafOnly() {
        var new = tree()
        new.children[0].children[1].onScreen = true
        let changes = new.changes(since: tree(), patching: true)
        XCTAssertEqual(changes, NodeSnapshot.Changes(patches: ["root/stack/b": ["onScreen": true]]))
        XCTAssertEqual(try tree().applying(changes, merging: merge), new)
    }

    func testPatches_whenAContainerAndItsChildrenChanged_thenEachNodesMembersAndNoSubtree() {
        var new = tree()
        new.children[0].current = "b"
        new.children[0].children[0].onScreen = false
        new.children[0].children[1].onScreen = true
        let changes = new.changes(since: tree(), patching: true)
        XCTAssertEqual(changes.changed, [])
        XCTAssertEqual(
            changes.patches,
            ["root/stack": ["current": "b"], "root/stack/a": ["onScreen": false], "root/stack/b": ["onScreen": true]])
        XCTAssertEqual(try tree().applying(changes, merging: merge), new)
    }

    func testPatches_whenAnOptionalMemberIsGone_thenItIsNull() {
        var new = tree()
        new.children[0].current = nil
        XCTAssertEqual(new.changes(since: tree(), patching: true).patches, ["root/stack": ["current": .null]])
        XCTAssertEqual(try tree().applying(new.changes(since: tree(), patching: true), merging: merge), new)
    }

    func testPatches_whenAListOfChildrenChanged_thenThatNodeWholeAndTheGoneNamed() {
        var new = tree()
        new.children[0].children.removeLast()
        new.children[0].current = "a"
        new.children[1].title = "Other"
        let changes = new.changes(since: tree(), patching: true)
        XCTAssertEqual(changes.changed.map(\.path), ["root/stack"])
        XCTAssertEqual(changes.removed, ["root/stack/b"])
        XCTAssertEqual(changes.patches, ["root/other": ["title": "Other"]])
        XCTAssertEqual(try tree().applying(changes, merging: merge), new)
    }

    func testPatches_whenAnyOneMemberChanged_thenThatMemberAlone() {
        var changed = tree().children[1]
        changed.title = "T"
        changed.url = "https://example.com"
        changed.appearance = .appearing
        changed.pageCount = 4
        changed.keyboardOverlap = 12.5
        var new = tree()
        new.children[1] = changed
        let patch = new.changes(since: tree(), patching: true).patches["root/other"]
        XCTAssertEqual(
            patch, ["title": "T", "url": "https://example.com", "appearance": "appearing", "pageCount": 4, "keyboardOverlap": 12.5])
        XCTAssertEqual(try tree().applying(new.changes(since: tree(), patching: true), merging: merge), new)
    }

    /// A patch merged as a client with no decoder of this package's would merge it: through
    /// Foundation's JSON.
    private func merge(_ node: NodeSnapshot, _ patch: [String: JSONValue]) throws -> NodeSnapshot {
        var members = node.ownMembers
        for (key, value) in patch { members[key] = value == .null ? nil : value }
        members["children"] = []
        var merged = try JSONDecoder().decode(NodeSnapshot.self, from: Data(JSONValue.object(members).jsonText.utf8))
        merged.children = node.children
        return merged
    }
}
