import Foundation
import StateContainers
import TestSupport
import XCTest

final class TreeFileValidationTests: AppStateTestCase {
    private let leaf = #"{"type": "Controller", "id": "a"}"#
    private let otherLeaf = #"{"type": "Controller", "id": "b"}"#

    func testValidate_whenTypeUnknown_thenErrorNamesPathAndExpectedTypes() {
        let problems = TreeFixtures.problems(
            root: #"{"type": "PaginatedController", "id": "p", "children": [\#(leaf), {"type": "Pager", "id": "b"}]}"#)

        XCTAssertEqual(
            problems,
            [
                #"trees[0].root.children[1]: unknown type "Pager" (expected one of Controller, ContentStateController, LoginStateController, PaginatedController, KeyboardAwareController, MenuController, StackController, NavigationController, SplitController)"#
            ])
    }

    func testValidate_whenSiblingIdentifiersRepeat_thenErrorAtTheRepeat() {
        let problems = TreeFixtures.problems(
            root:
                #"{"type": "MenuController", "id": "m", "children": [{"type": "Controller", "id": "home"}, \#(leaf), {"type": "Controller", "id": "home"}]}"#
        )

        XCTAssertEqual(problems, [#"trees[0].root.children[2]: duplicate sibling identifier "home""#])
    }

    func testValidate_whenSiblingRestorationIdentifiersRepeat_thenErrorAtTheRepeat() {
        let problems = TreeFixtures.problems(
            root: #"{"type": "MenuController", "id": "m", "children": [\#(leaf), {"type": "Controller", "id": "b", "restorationId": "a"}]}"#)

        XCTAssertEqual(problems, [#"trees[0].root.children[1]: duplicate sibling restoration identifier "a""#])
    }

    func testValidate_whenSiblingsHaveNoRestorationIdentifier_thenValid() {
        XCTAssertEqual(
            TreeFixtures.problems(
                root: """
                    {"type": "MenuController", "id": "m", "children": [{"type": "Controller", "id": "a", "restorationId": null},
                                                                       {"type": "Controller", "id": "b", "restorationId": null}]}
                    """), [])
    }

    func testValidate_whenLoginStateHasOneChild_thenNeedsExactlyTwo() {
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "LoginStateController", "id": "s", "children": [\#(leaf)]}"#),
            ["trees[0].root: a LoginStateController needs two or three children (logged out, logged in, and optionally locked)"])
    }

    func testValidate_whenChildCountWrongForType_thenEachTypeSaysWhatItNeeds() {
        let cases: [(root: String, problem: String)] = [
            (#"{"type": "Controller", "id": "c", "children": [\#(leaf)]}"#, "a Controller has no children"),
            (#"{"type": "KeyboardAwareController", "id": "k"}"#, "a KeyboardAwareController needs exactly one child (its content)"),
            (
                #"{"type": "KeyboardAwareController", "id": "k", "children": [\#(leaf), \#(otherLeaf)]}"#,
                "a KeyboardAwareController needs exactly one child (its content)"
            ),
            (
                #"{"type": "LoginStateController", "id": "s", "children": [\#(leaf), \#(otherLeaf), {"type": "Controller", "id": "c"}, {"type": "Controller", "id": "d"}]}"#,
                "a LoginStateController needs two or three children (logged out, logged in, and optionally locked)"
            ),
            (#"{"type": "PaginatedController", "id": "p"}"#, "a PaginatedController needs at least one child (its pages)"),
            (#"{"type": "MenuController", "id": "m", "children": []}"#, "a MenuController needs at least one child (its items)"),
            (#"{"type": "StackController", "id": "s"}"#, "a StackController needs at least one child (its arranged children)"),
            (#"{"type": "NavigationController", "id": "n"}"#, "a NavigationController needs at least one child (its root)"),
            (
                #"{"type": "ContentStateController", "id": "c", "children": [\#(leaf), \#(otherLeaf)]}"#,
                "a ContentStateController has at most one child (what it renders)"
            ),
            (#"{"type": "SplitController", "id": "s", "children": [\#(leaf)]}"#, "a SplitController needs exactly two children (primary, secondary)"),
            (
                #"{"type": "SplitController", "id": "s", "children": [\#(leaf), \#(otherLeaf), {"type": "Controller", "id": "c"}]}"#,
                "a SplitController needs exactly two children (primary, secondary)"
            ),
        ]

        for (root, problem) in cases {
            XCTAssertEqual(TreeFixtures.problems(root: root), ["trees[0].root: \(problem)"], root)
        }
    }

    func testValidate_whenContentStateLeftOut_thenRenderWithAChildAndLoadingWithout() throws {
        let withChild = try TreeFixtures.decode(TreeFixtures.file(root: #"{"type": "ContentStateController", "id": "c", "children": [\#(leaf)]}"#))
        let withoutChild = try TreeFixtures.decode(TreeFixtures.file(root: #"{"type": "ContentStateController", "id": "c"}"#))

        XCTAssertNil(withChild.trees[0].root.string(ContentStateController.Kind.state))
        XCTAssertNil(withoutChild.trees[0].root.string(ContentStateController.Kind.state))
    }

    func testValidate_whenContentStateInconsistent_thenEachProblemNamed() {
        let cases: [(root: String, problem: String)] = [
            (
                #"{"type": "ContentStateController", "id": "c", "state": "loadin"}"#,
                #"trees[0].root.state: unknown state "loadin" (expected one of loading, failed, render)"#
            ),
            (
                #"{"type": "ContentStateController", "id": "c", "state": "render"}"#,
                #"trees[0].root: a ContentStateController in state "render" needs a child to render"#
            ),
            (
                #"{"type": "ContentStateController", "id": "c", "state": "loading", "children": [\#(leaf)]}"#,
                #"trees[0].root: a ContentStateController in state "loading" does not show its child (only state "render" does)"#
            ),
            (
                #"{"type": "ContentStateController", "id": "c", "state": "failed"}"#,
                #"trees[0].root: a ContentStateController in state "failed" needs a "message""#
            ),
            (
                #"{"type": "ContentStateController", "id": "c", "message": "offline"}"#,
                #"trees[0].root.message: "message" applies only to state "failed""#
            ),
        ]

        for (root, problem) in cases {
            XCTAssertEqual(TreeFixtures.problems(root: root), [problem], root)
        }
    }

    func testValidate_whenKeyGivenToTypeThatDoesNotUseIt_thenErrorAtTheKey() {
        let cases: [(root: String, problem: String)] = [
            (
                #"{"type": "MenuController", "id": "m", "spacing": 4, "children": [\#(leaf)]}"#,
                #"trees[0].root.spacing: "spacing" applies only to a StackController"#
            ),
            (
                #"{"type": "StackController", "id": "s", "transitionMs": 100, "children": [\#(leaf)]}"#,
                #"trees[0].root.transitionMs: "transitionMs" applies only to a ContentStateController, LoginStateController, PaginatedController, MenuController or NavigationController"#
            ),
            (
                #"{"type": "PaginatedController", "id": "p", "destinations": [\#(otherLeaf)], "children": [\#(leaf)]}"#,
                #"trees[0].root.destinations: "destinations" applies only to a NavigationController"#
            ),
            (
                #"{"type": "Controller", "id": "c", "state": "loading"}"#,
                #"trees[0].root.state: "state" applies only to a ContentStateController"#
            ),
            (
                #"{"type": "Controller", "id": "c", "message": "offline"}"#,
                #"trees[0].root.message: "message" applies only to a ContentStateController"#
            ),
            (
                #"{"type": "StackController", "id": "s", "primaryFraction": 0.5, "children": [\#(leaf)]}"#,
                #"trees[0].root.primaryFraction: "primaryFraction" applies only to a SplitController"#
            ),
        ]

        for (root, problem) in cases {
            XCTAssertEqual(TreeFixtures.problems(root: root), [problem], root)
        }
    }

    func testValidate_whenNumbersOutOfRange_thenErrorAtTheKey() {
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "StackController", "id": "s", "spacing": -1.5, "children": [\#(leaf)]}"#),
            ["trees[0].root.spacing: spacing must be a number of at least 0 (got -1.5)"])
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "NavigationController", "id": "n", "transitionMs": -5, "children": [\#(leaf)]}"#),
            ["trees[0].root.transitionMs: transition duration must not be negative (got -5)"])
        XCTAssertEqual(
            TreeFixtures.problems(
                root:
                    #"{"type": "SplitController", "id": "s", "primaryFraction": 1.5, "minimumExpandedWidth": -1, "children": [\#(leaf), \#(otherLeaf)]}"#
            ),
            [
                "trees[0].root.primaryFraction: primary fraction must be a number above 0 and below 1 (got 1.5)",
                "trees[0].root.minimumExpandedWidth: minimum expanded width must be a number of at least 0 (got -1)",
            ])
        XCTAssertEqual(
            TreeFixtures.problems(in: #"{"trees": [{"name": "t", "window": {"width": 0, "height": -800}, "root": \#(leaf)}]}"#),
            [
                "trees[0].window.width: window width must be a positive number (got 0)",
                "trees[0].window.height: window height must be a positive number (got -800)",
            ])
    }

    func testValidate_whenIdentifiersMalformed_thenErrorsNameThem() {
        XCTAssertEqual(TreeFixtures.problems(root: #"{"type": "Controller", "id": ""}"#), ["trees[0].root: identifier must not be empty"])
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "Controller", "id": "a/b"}"#), [#"trees[0].root: identifier "a/b" must not contain "/""#])
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "Controller", "id": "a", "restorationId": ""}"#),
            ["trees[0].root.restorationId: restoration identifier must not be empty (null takes the node out of restoration)"])
        XCTAssertEqual(
            TreeFixtures.problems(root: #"{"type": "Controller", "id": "a", "restorationId": "x/y"}"#),
            [#"trees[0].root.restorationId: restoration identifier "x/y" must not contain "/""#])
    }

    func testValidate_whenDestinationsClash_thenErrorAtTheDestination() {
        let problems = TreeFixtures.problems(
            root: """
                {"type": "NavigationController", "id": "n", "children": [{"type": "Controller", "id": "root"}],
                 "destinations": [\(leaf), \(leaf), {"type": "Controller", "id": "root"}]}
                """)

        XCTAssertEqual(
            problems,
            [
                #"trees[0].root.destinations[1]: duplicate destination identifier "a""#,
                #"trees[0].root.destinations[2]: destination identifier "root" is the root's: it could never be pushed"#,
            ])
    }

    func testValidate_whenDestinationInvalid_thenItsSubtreeIsChecked() {
        let problems = TreeFixtures.problems(
            root:
                #"{"type": "NavigationController", "id": "n", "children": [\#(leaf)], "destinations": [{"type": "KeyboardAwareController", "id": "k"}]}"#
        )

        XCTAssertEqual(problems, ["trees[0].root.destinations[0]: a KeyboardAwareController needs exactly one child (its content)"])
    }

    func testValidate_whenTreeNamesMalformedOrRepeated_thenErrorsAtTheTree() {
        let json = """
            {"trees": [{"name": "kiosk", "root": \(leaf)}, {"name": "Kiosk 2", "root": \(leaf)},
                       {"name": "", "root": \(leaf)}, {"name": "kiosk", "root": \(leaf)}]}
            """

        XCTAssertEqual(
            TreeFixtures.problems(in: json),
            [
                #"trees[1]: tree name "Kiosk 2" may only contain a-z, 0-9 and "-""#,
                "trees[2]: tree name must not be empty",
                #"trees[3]: duplicate tree name "kiosk""#,
            ])
    }

    func testValidate_whenVersionUnknownAndNoTrees_thenBothReported() {
        XCTAssertEqual(
            TreeFixtures.problems(in: #"{"version": 2, "trees": []}"#),
            [
                "version: unsupported version 2 (this build reads version 1)",
                "trees: a tree file needs at least one tree",
            ])
    }

    func testValidate_whenManyProblems_thenAllCollectedInFileOrder() {
        let json = """
            {"trees": [{"name": "t", "root": {"type": "LoginStateController", "id": "session", "children": [
                {"type": "KeyboardAwareController", "id": "login"},
                {"type": "MenuController", "id": "home", "spacing": 3, "children": [
                    {"type": "Pager", "id": "pages"}, {"type": "Controller", "id": "pages"}]}]}},
                       {"name": "t", "root": {"type": "Controller", "id": "x/y"}}]}
            """

        XCTAssertEqual(
            TreeFixtures.problems(in: json),
            [
                "trees[0].root.children[0]: a KeyboardAwareController needs exactly one child (its content)",
                #"trees[0].root.children[1].spacing: "spacing" applies only to a StackController"#,
                #"trees[0].root.children[1].children[0]: unknown type "Pager" (expected one of Controller, ContentStateController, LoginStateController, PaginatedController, KeyboardAwareController, MenuController, StackController, NavigationController, SplitController)"#,
                #"trees[0].root.children[1].children[1]: duplicate sibling identifier "pages""#,
                #"trees[1]: duplicate tree name "t""#,
                #"trees[1].root: identifier "x/y" must not contain "/""#,
            ])
    }

    func testValidate_whenFileMadeInCode_thenSameChecks() {
        var root = NodeSpec(kind: LoginStateController.Kind.self, id: "session", children: [NodeSpec(kind: Controller.Kind.self, id: "out")])
        root.restorationId = nil
        let file = TreeFile(trees: [TreeSpec(name: "t", root: root)])

        XCTAssertThrowsError(try file.validate()) { error in
            XCTAssertEqual(
                (error as? TreeFileError)?.issues.map(\.description),
                ["trees[0].root: a LoginStateController needs two or three children (logged out, logged in, and optionally locked)"])
        }
    }

    func testValidate_whenMadeInCodeTooDeep_thenStopsAtTheLimit() {
        var node = NodeSpec(kind: Controller.Kind.self, id: "leaf")
        for level in 0..<40 { node = NodeSpec(kind: PaginatedController.Kind.self, id: "p\(level)", children: [node]) }
        let file = TreeFile(trees: [TreeSpec(name: "t", root: node)])

        XCTAssertThrowsError(try file.validate()) { error in
            let path = "trees[0].root" + String(repeating: ".children[0]", count: 33)
            XCTAssertEqual((error as? TreeFileError)?.issues.map(\.description), ["\(path): nodes nest more than 32 levels deep"])
        }
    }

    func testDescription_whenFileAndLinesKnown_thenOneProblemALineLikeACompiler() {
        let error = TreeFileError(
            issues: [
                TreeFileError.Issue(path: [.key("trees"), .index(0), .key("root")], message: "first", line: 12),
                TreeFileError.Issue(path: [], message: "second"),
            ], file: "kiosk.yaml")

        XCTAssertEqual(error.description, "kiosk.yaml: line 12: trees[0].root: first\nkiosk.yaml: second")
        XCTAssertEqual(error.issues[0].location, "trees[0].root")
    }
}
