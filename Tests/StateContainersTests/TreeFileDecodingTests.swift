import AppStateCore
import Foundation
import StateContainers
import TestSupport
import XCTest

final class TreeFileDecodingTests: AppStateTestCase {
    private let nodeKeys =
        "type, id, title, url, restorationId, state, message, transitionMs, spacing, primaryFraction, minimumExpandedWidth, children, destinations"

    func testDecode_whenMinimalFile_thenDefaultsApply() throws {
        let file = try TreeFixtures.decode(TreeFixtures.file(root: #"{"type": "Controller", "id": "main"}"#))

        XCTAssertEqual(file.version, 1)
        XCTAssertEqual(file.trees.count, 1)
        XCTAssertEqual(file.trees[0].name, "t")
        XCTAssertEqual(file.trees[0].window, Size(width: 1280, height: 800))
        XCTAssertEqual(file.trees[0].root, NodeSpec(kind: Controller.Kind.self, id: "main"))
    }

    func testDecode_whenBytesOrData_thenSameFile() throws {
        let json = TreeFixtures.file(root: #"{"type": "Controller", "id": "main", "title": "Main"}"#)

        XCTAssertEqual(try TreeFile.decode(json: Array(json.utf8)), try TreeFile.decode(json: Data(json.utf8)))
    }

    func testDecode_whenWindowNull_thenDefaultSize() throws {
        let file = try TreeFixtures.decode(#"{"trees": [{"name": "t", "window": null, "root": {"type": "Controller", "id": "a"}}]}"#)

        XCTAssertEqual(file.trees[0].window, TreeSpec.defaultWindowSize)
    }

    func testDecode_whenWindowGiven_thenItsSize() throws {
        let file = try TreeFixtures.decode(
            #"{"trees": [{"name": "t", "window": {"width": 1080, "height": 1920.5}, "root": {"type": "Controller", "id": "a"}}]}"#)

        XCTAssertEqual(file.trees[0].window, Size(width: 1080, height: 1920.5))
    }

    func testDecode_whenRestorationIdAbsent_thenItIsTheIdentifier() throws {
        let root = try TreeFixtures.decode(TreeFixtures.file(root: #"{"type": "Controller", "id": "main"}"#)).trees[0].root

        XCTAssertEqual(root.restorationId, "main")
    }

    func testDecode_whenRestorationIdNull_thenNone() throws {
        let root = try TreeFixtures.decode(TreeFixtures.file(root: #"{"type": "Controller", "id": "main", "restorationId": null}"#)).trees[0].root

        XCTAssertNil(root.restorationId)
    }

    func testDecode_whenRestorationIdGiven_thenIt() throws {
        let root = try TreeFixtures.decode(TreeFixtures.file(root: #"{"type": "Controller", "id": "main", "restorationId": "m"}"#)).trees[0].root

        XCTAssertEqual(root.restorationId, "m")
    }

    func testDecode_whenEveryKeyGiven_thenEveryPropertySet() throws {
        let file = try TreeFixtures.decode(
            TreeFixtures.file(
                root: """
                    {"type": "NavigationController", "id": "nav", "title": "Nav", "transitionMs": 250,
                     "children": [{"type": "ContentStateController", "id": "c", "state": "failed", "message": "offline"}],
                     "destinations": [{"type": "StackController", "id": "s", "spacing": 8.5,
                                       "children": [{"type": "Controller", "id": "x"}]}]}
                    """))
        let root = file.trees[0].root

        XCTAssertEqual(root.type, NavigationController.Kind.typeName)
        XCTAssertTrue(root.kind == NavigationController.Kind.self)
        XCTAssertEqual(root.title, "Nav")
        XCTAssertEqual(root.integer(.transitionMs), 250)
        XCTAssertEqual(root.transitionDuration, .milliseconds(250))
        XCTAssertEqual(root.children[0].string(ContentStateController.Kind.state), "failed")
        XCTAssertEqual(root.children[0].string(ContentStateController.Kind.message), "offline")
        XCTAssertEqual(root.nodes(NavigationController.Kind.destinations)[0].number(StackController.Kind.spacing), 8.5)
        XCTAssertEqual(root.nodes(NavigationController.Kind.destinations)[0].children.map(\.id), ["x"])
    }

    func testDecode_whenKeyUnknown_thenErrorNamesKeyAndExpectedKeys() {
        let problems = TreeFixtures.problems(root: #"{"type": "Controller", "id": "main", "titel": "Main"}"#)

        XCTAssertEqual(problems, [#"trees[0].root.titel: unknown key "titel" (expected one of \#(nodeKeys))"#])
    }

    func testDecode_whenKeysUnknownAtEveryLevel_thenAllReportedInFileOrder() {
        let json = """
            {"verison": 1, "trees": [{"name": "t", "windw": {}, "window": {"width": 10, "height": 10, "depth": 3},
              "root": {"type": "Pager", "id": "main", "titel": "Main", "children": [{"type": "Controller", "id": "a", "kids": []}]}}]}
            """

        XCTAssertEqual(
            TreeFixtures.problems(in: json),
            [
                #"trees[0].window.depth: unknown key "depth" (expected one of width, height)"#,
                #"trees[0].root: unknown type "Pager" (expected one of Controller, ContentStateController, LoginStateController, PaginatedController, KeyboardAwareController, MenuController, StackController, NavigationController, SplitController)"#,
                #"trees[0].root.children[0].kids: unknown key "kids" (expected one of \#(nodeKeys))"#,
                #"trees[0].root.titel: unknown key "titel" (expected one of \#(nodeKeys))"#,
                #"trees[0].windw: unknown key "windw" (expected one of name, window, offline, root, presentations)"#,
                #"verison: unknown key "verison" (expected one of version, trees)"#,
            ])
    }

    /// Idle steps, the logind seat and the output a tree follows are the daemon's policy: its
    /// tree files read them beside these keys (`HostedTreeFile`), the model does not.
    func testDecode_whenATreeHoldsTheDaemonsKeys_thenTheyAreUnknownToTheModel() {
        XCTAssertEqual(
            TreeFixtures.problems(in: #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a"}, "output": "HDMI-A-1"}]}"#),
            [#"trees[0].output: unknown key "output" (expected one of name, window, offline, root, presentations)"#])
    }

    func testDecode_whenValueHasWrongType_thenErrorNamesItsPath() {
        XCTAssertEqual(TreeFixtures.problems(root: #"{"type": "Controller", "id": 3}"#), ["trees[0].root.id: expected a string"])
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "Controller", "id": "a", "children": {}}"#), ["trees[0].root.children: expected a list"])
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "StackController", "id": "a", "spacing": "wide"}"#), ["trees[0].root.spacing: expected a number"])
        XCTAssertEqual(TreeFixtures.problems(in: #"{"trees": [3]}"#), ["trees[0]: expected a mapping"])
        XCTAssertEqual(TreeFixtures.problems(in: "[]"), ["expected a mapping"])
    }

    func testDecode_whenIntegerHasFraction_thenExpectedAnInteger() {
        XCTAssertEqual(
            TreeFixtures.problems(
                root: #"{"type": "PaginatedController", "id": "p", "transitionMs": 2.5, "children": [{"type": "Controller", "id": "a"}]}"#),
            ["trees[0].root.transitionMs: expected an integer"])
        XCTAssertEqual(TreeFixtures.problems(in: #"{"version": 1.5, "trees": []}"#), ["version: expected an integer"])
        XCTAssertEqual(TreeFixtures.problems(in: #"{"version": "one", "trees": []}"#), ["version: expected an integer"])
    }

    func testDecode_whenKeyMissing_thenErrorNamesKeyAndItsMapping() {
        XCTAssertEqual(TreeFixtures.problems(root: #"{"type": "Controller"}"#), [#"trees[0].root: missing key "id""#])
        XCTAssertEqual(TreeFixtures.problems(in: #"{"trees": [{"root": {"type": "Controller", "id": "a"}}]}"#), [#"trees[0]: missing key "name""#])
        XCTAssertEqual(
            TreeFixtures.problems(in: #"{"trees": [{"name": "t", "window": {"width": 3}, "root": {"type": "Controller", "id": "a"}}]}"#),
            [#"trees[0].window: missing key "height""#])
        XCTAssertEqual(TreeFixtures.problems(in: "{}"), [#"missing key "trees""#])
    }

    func testDecode_whenRequiredValueNull_thenExpectedValueFoundNull() {
        XCTAssertEqual(TreeFixtures.problems(root: #"{"type": "Controller", "id": null}"#), ["trees[0].root.id: expected a string, found null"])
    }

    func testDecode_whenStructuralErrorAfterUnknownKeys_thenBothReported() {
        let problems = TreeFixtures.problems(root: #"{"type": "Controller", "id": "r", "tilte": "x", "children": [{"type": "Controller", "id": 1}]}"#)

        XCTAssertEqual(
            problems,
            [
                "trees[0].root.children[0].id: expected a string",
                #"trees[0].root.tilte: unknown key "tilte" (expected one of \#(nodeKeys))"#,
            ])
    }

    func testDecode_whenNotJSON_thenOneErrorForTheWholeFile() {
        let problems = TreeFixtures.problems(in: #"{"trees": [x]}"#)

        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].contains("not valid JSON"), problems[0])
    }

    func testDecode_whenNestedTooDeep_thenErrorInsteadOfRecursingOn() {
        var node = #"{"type": "Controller", "id": "leaf"}"#
        for level in 0..<40 { node = #"{"type": "PaginatedController", "id": "p\#(level)", "children": [\#(node)]}"# }

        let problems = TreeFixtures.problems(root: node)

        let path = "trees[0].root" + String(repeating: ".children[0]", count: 33)
        XCTAssertEqual(problems, ["\(path): nodes nest more than 32 levels deep"])
    }

    func testDecode_whenPlainDecoderMeetsUnknownKey_thenItThrows() {
        let json = TreeFixtures.file(root: #"{"type": "Controller", "id": "main", "titel": "Main"}"#)

        XCTAssertThrowsError(try JSONDecoder().decode(TreeFile.self, from: Data(json.utf8))) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["trees", "Index 0", "root", "titel"])
        }
    }

    func testEncode_whenDecodedAgain_thenSameFile() throws {
        let json = TreeFixtures.file(
            root: """
                {"type": "NavigationController", "id": "nav", "restorationId": null, "transitionMs": 250,
                 "children": [{"type": "ContentStateController", "id": "c", "restorationId": "r", "state": "failed", "message": "offline"}],
                 "destinations": [{"type": "StackController", "id": "s", "spacing": 8.5, "children": [{"type": "Controller", "id": "x"}]}]}
                """)
        let file = try TreeFixtures.decode(json)

        let encoded = try JSONEncoder().encode(file)

        XCTAssertEqual(try TreeFile.decode(json: encoded), file)
    }
}
