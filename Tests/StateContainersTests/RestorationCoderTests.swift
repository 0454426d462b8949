import AppStateCore
import Foundation
import StateContainers
import XCTest

/// A controller that saves one string, `value`, and logs its restoration calls.
@MainActor private final class Restorable: LoggingController {
    var value: String?
    /// Children this controller creates when it decodes `made` (as a navigation stack would).
    var makeChild: ((String) -> Controller)?

    override func encodeRestorableState(with coder: RestorationCoder) {
        super.encodeRestorableState(with: coder)
        if let value { coder.encode(value, forKey: "value") }
        let made = children.compactMap(\.restorationIdentifier)
        if makeChild != nil, !made.isEmpty { coder.encode(made, forKey: "made") }
    }

    override func decodeRestorableState(with coder: RestorationCoder) {
        super.decodeRestorableState(with: coder)
        log.append("\(identifier).decode(\(coder.decodeString(forKey: "value") ?? "nil"))")
        value = coder.decodeString(forKey: "value")
        if let makeChild, let made = coder.decodeStrings(forKey: "made") {
            for identifier in made where child(named: identifier) == nil {
                expectNoThrow { try addChild(makeChild(identifier)) }
            }
        }
    }
}

/// RestorationCoder, restoration paths and encoding/decoding a tree
/// (`Sources/StateContainers/StateContainers.docc/Restoration.md`).
final class RestorationCoderTests: ModelTestCase {
    private func restorable(_ identifier: String, restorationIdentifier: String? = nil, value: String? = nil) -> Restorable {
        let controller = Restorable(identifier, log: log)
        controller.restorationIdentifier = restorationIdentifier ?? identifier
        controller.value = value
        return controller
    }

    // MARK: RestorationCoder

    func testCoder_whenValuesAreEncoded_thenDecodesThemByKeyAndType() async {
        let coder = RestorationCoder()

        coder.encode("ada", forKey: "user")
        coder.encode(3, forKey: "page")
        coder.encode(["a", "b"], forKey: "stack")
        coder.encode(["x": 1] as JSONValue, forKey: "raw")

        XCTAssertEqual(coder.decodeString(forKey: "user"), "ada")
        XCTAssertEqual(coder.decodeInteger(forKey: "page"), 3)
        XCTAssertEqual(coder.decodeStrings(forKey: "stack"), ["a", "b"])
        XCTAssertEqual(coder.values["raw"], ["x": 1])
        XCTAssertTrue(coder.containsValue(forKey: "page"))
        XCTAssertFalse(coder.containsValue(forKey: "missing"))
        XCTAssertEqual(coder.values, ["user": "ada", "page": 3, "stack": ["a", "b"], "raw": ["x": 1]])
    }

    func testCoder_whenDecodingTheWrongType_thenNil() async {
        let coder = RestorationCoder(values: ["s": "3", "n": 3, "f": 2.5, "mixed": ["a", 1], "missing": nil])

        XCTAssertNil(coder.decodeInteger(forKey: "s"))
        XCTAssertNil(coder.decodeString(forKey: "n"))
        XCTAssertNil(coder.decodeInteger(forKey: "f"))
        XCTAssertNil(coder.decodeStrings(forKey: "mixed"))
        XCTAssertNil(coder.decodeStrings(forKey: "s"))
        XCTAssertNil(coder.decodeString(forKey: "absent"))
        XCTAssertTrue(coder.containsValue(forKey: "missing"), "an explicit null is a saved value")
    }

    // MARK: restoration paths

    func testRestorationPath_whenEveryAncestorHasAnIdentifier_thenJoinsThemWithSlashes() async throws {
        let root = restorable("root", restorationIdentifier: "r")
        let child = restorable("child", restorationIdentifier: "c")
        let grandchild = restorable("grandchild", restorationIdentifier: "g")
        try root.addChild(child)
        try child.addChild(grandchild)

        XCTAssertEqual(root.restorationPath, "r")
        XCTAssertEqual(child.restorationPath, "r/c")
        XCTAssertEqual(grandchild.restorationPath, "r/c/g")
    }

    func testRestorationPath_whenAnAncestorHasNoIdentifier_thenNil() async throws {
        let root = restorable("root")
        let middle = restorable("middle")
        middle.restorationIdentifier = nil
        let leaf = restorable("leaf")
        try root.addChild(middle)
        try middle.addChild(leaf)

        XCTAssertNil(middle.restorationPath)
        XCTAssertNil(leaf.restorationPath)
        XCTAssertEqual(root.restorationPath, "root")
    }

    // MARK: encode / decode

    func testEncodeRestorableTree_thenKeysEachParticipantsStateByPath() async throws {
        let root = restorable("root", value: "r")
        let child = restorable("child", value: "c")
        let silent = restorable("silent")
        let orphanParent = restorable("orphanParent", value: "skipped")
        orphanParent.restorationIdentifier = nil
        let orphan = restorable("orphan", value: "skipped too")
        try root.addChild(child)
        try root.addChild(silent)
        try root.addChild(orphanParent)
        try orphanParent.addChild(orphan)

        let document = root.encodeRestorableTree()

        XCTAssertEqual(document.version, RestorationDocument.currentVersion)
        XCTAssertEqual(
            document.controllers,
            [
                "root": ["value": "r"],
                "root/child": ["value": "c"],
            ])
    }

    func testDecodeRestorableTree_thenRestoresEachParticipantParentsFirst() async throws {
        let root = restorable("root")
        let a = restorable("a")
        let a1 = restorable("a1")
        let b = restorable("b")
        for (parent, child) in [(root, a), (a, a1), (root, b)] { try parent.addChild(child) }
        log.removeAll()
        let document = RestorationDocument(controllers: [
            "root/b": ["value": "B"],
            "root/a/a1": ["value": "A1"],
            "root": ["value": "R"],
            "root/a": ["value": "A"],
        ])

        try root.decodeRestorableTree(document)

        XCTAssertEqual(log.entries, ["root.decode(R)", "a.decode(A)", "a1.decode(A1)", "b.decode(B)"])
        XCTAssertEqual([root, a, a1, b].map(\.value), ["R", "A", "A1", "B"])
    }

    func testDecodeRestorableTree_whenAParentCreatesChildren_thenTheyAreRestoredInTheSamePass() async throws {
        let root = restorable("root")
        root.makeChild = { [unowned self] identifier in self.restorable(identifier) }
        let saved = restorable("saved")
        saved.makeChild = root.makeChild
        try saved.addChild(restorable("one", value: "1"))
        try saved.addChild(restorable("two", value: "2"))
        var document = saved.encodeRestorableTree()
        // The same tree under the root's identifier.
        document.controllers = Dictionary(
            uniqueKeysWithValues: document.controllers.map { path, values in
                (path.replacingOccurrences(of: "saved", with: "root"), values)
            })
        log.removeAll()

        try root.decodeRestorableTree(document)

        XCTAssertEqual(root.children.map(\.identifier), ["one", "two"])
        XCTAssertEqual(root.children.map { ($0 as? Restorable)?.value }, ["1", "2"])
        XCTAssertEqual(
            log.entries,
            [
                "root.decode(nil)",
                "one.willMove(root)",
                "two.willMove(root)",
                "one.decode(1)",
                "two.decode(2)",
            ])
    }

    func testDecodeRestorableTree_whenVersionDiffers_thenThrowsAndRestoresNothing() async throws {
        let root = restorable("root", value: "kept")
        let document = RestorationDocument(version: RestorationDocument.currentVersion + 1, controllers: ["root": ["value": "new"]])

        assertThrows(.invalidArgument) { try root.decodeRestorableTree(document) }

        XCTAssertEqual(root.value, "kept")
        XCTAssertEqual(log.entries, [])
    }

    func testDecodeRestorableTree_whenAControllerIsNotMentioned_thenItKeepsItsState() async throws {
        let root = restorable("root", value: "r")
        let child = restorable("child", value: "kept")
        try root.addChild(child)

        try root.decodeRestorableTree(RestorationDocument(controllers: ["root": ["value": "R"]]))

        XCTAssertEqual(root.value, "R")
        XCTAssertEqual(child.value, "kept")
        XCTAssertEqual(log.entries, ["child.willMove(root)", "root.decode(R)"])
    }

    func testDecodeRestorableTree_thenLoadsNoViewsAndSendsNoAppearanceCallbacks() async throws {
        let root = restorable("root")
        let child = restorable("child")
        try root.addChild(child)
        let window = Window(size: Size(width: 10, height: 10))
        log.removeAll()

        try root.decodeRestorableTree(RestorationDocument(controllers: ["root": ["value": "R"], "root/child": ["value": "C"]]))
        window.rootController = root

        XCTAssertFalse(child.isViewLoaded)
        XCTAssertEqual(log.entries, ["root.decode(R)", "child.decode(C)", "root.viewDidLoad"])
    }

    func testRestorationDocument_roundTripsThroughJSON() async throws {
        let root = restorable("root", value: "r")
        try root.addChild(restorable("child", value: "c"))
        let document = root.encodeRestorableTree()

        let data = try JSONEncoder().encode(document)
        let decoded = try JSONDecoder().decode(RestorationDocument.self, from: data)

        XCTAssertEqual(decoded, document)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, RestorationDocument.currentVersion)
    }
}
