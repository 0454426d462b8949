import Dispatch
import TestSupport
import XCTest

@testable import AppStateCore

/// GetTree writes a tree from the text each node keeps of its own members: what it writes is
/// the generated encoding's text, byte for byte, before and after nodes change.
final class NodeSnapshotEncodingTests: AppStateTestCase {
    func testWriteReusingEncodings_whenWrittenTwice_thenTheGeneratedTextBothTimes() {
        let root = tree()
        XCTAssertEqual(reusing(root), generated(root))
        XCTAssertEqual(reusing(root), generated(root), "the second time copies the kept text")
    }

    func testWriteReusingEncodings_whenStringsHoldTheChildrensKey_thenStillTheGeneratedText() {
        var root = tree()
        root.title = #""children":[ and "children":[]"#
        root.children[0].url = #"https://example.com/?q="children":["#
        XCTAssertEqual(reusing(root), generated(root))
    }

    func testWriteReusingEncodings_whenANodeChangesAfterItsTextWasKept_thenTheNewText() {
        var root = tree()
        _ = reusing(root)
        // The only holder of each box changes it in place: its kept text must not outlive it.
        root.children[0].current = "b"
        root.children[0].children[1].onScreen = true
        root.blanked = true
        XCTAssertEqual(reusing(root), generated(root))
        root.children[0].children.removeFirst()
        XCTAssertEqual(reusing(root), generated(root))
    }

    func testWriteReusingEncodings_whenACopyChanges_thenTheOriginalKeepsItsText() {
        let original = tree()
        let before = reusing(original)
        var copy = original
        copy.children[0].pageIndex = 5
        XCTAssertEqual(reusing(original), before)
        XCTAssertEqual(reusing(copy), generated(copy))
        XCTAssertNotEqual(reusing(copy), before)
    }

    func testWriteReusingEncodings_whenWrittenFromManyThreadsAtOnce_thenEachGetsTheGeneratedText() {
        let root = tree()
        let expected = generated(root)
        // Each thread writes its own slot: the threads share the nodes and nothing else.
        nonisolated(unsafe) let texts = UnsafeMutableBufferPointer<String>.allocate(capacity: 8)
        defer { texts.deallocate() }
        texts.initialize(repeating: "")
        DispatchQueue.concurrentPerform(iterations: texts.count) { index in
            var buffer: [UInt8] = []
            root.writeJSONReusingEncodings(into: &buffer)
            texts[index] = String(decoding: buffer, as: UTF8.self)
        }
        XCTAssertEqual(Array(texts), Array(repeating: expected, count: texts.count))
    }

    private func reusing(_ node: NodeSnapshot) -> String {
        var buffer: [UInt8] = []
        node.writeJSONReusingEncodings(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private func generated(_ node: NodeSnapshot) -> String {
        var buffer: [UInt8] = []
        node.writeJSON(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private func tree() -> NodeSnapshot {
        NodeSnapshot(
            path: "root", identifier: "root", type: "LoginStateController", title: "Root \"quoted\"", appearance: .appeared,
            frame: Rect(x: 0, y: 0, width: 1280, height: 800.5), onScreen: true, current: "pages", user: "ada", offline: "file:///o.html",
            children: [
                NodeSnapshot(
                    path: "root/pages", identifier: "pages", type: "PaginatedController", appearance: .appeared,
                    contentInset: Insets(top: 1, left: 2, bottom: 300, right: 0), onScreen: true, current: "a", pageIndex: 0, pageCount: 2,
                    children: [
                        NodeSnapshot(path: "root/pages/a", identifier: "a", type: "Controller", title: "A", onScreen: true),
                        NodeSnapshot(path: "root/pages/b", identifier: "b", type: "Controller", url: "https://example.com/b"),
                    ]),
                NodeSnapshot(path: "root/menu", identifier: "menu", type: "MenuController", menuVisible: false, keyboardOverlap: 0.25),
            ])
    }
}
