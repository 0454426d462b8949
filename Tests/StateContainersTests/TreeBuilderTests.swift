import AppStateCore
import Foundation
import StateContainers
import TestSupport
import XCTest

@MainActor
final class TreeBuilderTests: AppStateTestCase {
    private let leaf = #"{"type": "Controller", "id": "a"}"#

    func testBuild_whenTreeBuilt_thenWindowOfItsSizeWithRootNotYetVisible() async throws {
        let tree = try tree(#"{"type": "Controller", "id": "main", "title": "Main"}"#, window: #"{"width": 800, "height": 480}"#)

        let window = try TreeBuilder.build(tree, clock: ManualClock())

        XCTAssertEqual(window.size, Size(width: 800, height: 480))
        XCTAssertFalse(window.isVisible)
        XCTAssertEqual(window.rootController?.identifier, "main")
        XCTAssertEqual(window.rootController?.title, "Main")
    }

    func testBuild_whenBusGiven_thenTheWindowsBus() async throws {
        let bus = NotificationBus()

        let window = try TreeBuilder.build(try tree(leaf), bus: bus, clock: ManualClock())

        XCTAssertTrue(window.bus === bus)
    }

    func testMakeRootController_whenRestorationIdentifiersGivenOrNot_thenSetAsTheFileSays() async throws {
        let root = try TreeBuilder.makeRootController(
            for: try tree(
                """
                {"type": "MenuController", "id": "menu", "children": [
                    {"type": "Controller", "id": "a"},
                    {"type": "Controller", "id": "b", "restorationId": "bee"},
                    {"type": "Controller", "id": "c", "restorationId": null}]}
                """))

        XCTAssertNil(root.window)
        XCTAssertEqual(root.restorationIdentifier, "menu")
        XCTAssertEqual(root.children.map(\.restorationIdentifier), ["a", "bee", nil])
        XCTAssertEqual(root.children.map(\.restorationPath), ["menu/a", "menu/bee", nil])
    }

    func testBuild_whenTransitionMsGiven_thenEachContainersDuration() async throws {
        let root = try TreeBuilder.makeRootController(
            for: try tree(
                """
                {"type": "MenuController", "id": "menu", "transitionMs": 100, "children": [
                    {"type": "LoginStateController", "id": "session", "transitionMs": 500, "children": [\(leaf), {"type": "Controller", "id": "b"}]},
                    {"type": "PaginatedController", "id": "pages", "transitionMs": 200, "children": [\(leaf)]},
                    {"type": "NavigationController", "id": "nav", "transitionMs": 300, "children": [\(leaf)]},
                    {"type": "ContentStateController", "id": "content", "transitionMs": 400},
                    {"type": "PaginatedController", "id": "default", "children": [\(leaf)]}]}
                """))

        XCTAssertEqual((root as? MenuController)?.transitionDuration, .milliseconds(100))
        XCTAssertEqual((root.descendant(at: "pages") as? PaginatedController)?.transitionDuration, .milliseconds(200))
        XCTAssertEqual((root.descendant(at: "nav") as? NavigationController)?.transitionDuration, .milliseconds(300))
        XCTAssertEqual((root.descendant(at: "content") as? ContentStateController)?.transitionDuration, .milliseconds(400))
        XCTAssertEqual((root.descendant(at: "session") as? LoginStateController)?.transitionDuration, .milliseconds(500))
        XCTAssertEqual((root.descendant(at: "default") as? PaginatedController)?.transitionDuration, .zero)
    }

    func testBuild_whenStackSpacingGiven_thenSet() async throws {
        let root = try TreeBuilder.makeRootController(
            for: try tree(#"{"type": "StackController", "id": "s", "spacing": 12, "children": [\#(leaf)]}"#))

        XCTAssertEqual((root as? StackController)?.spacing, 12)
        XCTAssertEqual((root as? StackController)?.arrangedChildren.map(\.identifier), ["a"])
    }

    func testBuild_whenSplitGiven_thenPrimarySecondaryAndItsKeysOrTheirDefaults() async throws {
        let root = try TreeBuilder.makeRootController(
            for: try tree(
                """
                {"type": "StackController", "id": "s", "children": [
                    {"type": "SplitController", "id": "mail", "primaryFraction": 0.25, "minimumExpandedWidth": 900,
                     "children": [{"type": "Controller", "id": "list"}, {"type": "Controller", "id": "detail"}]},
                    {"type": "SplitController", "id": "plain", "children": [{"type": "Controller", "id": "a"}, {"type": "Controller", "id": "b"}]}]}
                """))

        let mail = try XCTUnwrap(root.descendant(at: "mail") as? SplitController)
        XCTAssertEqual(mail.primary.path, "s/mail/list")
        XCTAssertEqual(mail.secondary.path, "s/mail/detail")
        XCTAssertEqual(mail.primaryFraction, 0.25)
        XCTAssertEqual(mail.minimumExpandedWidth, 900)
        let plain = try XCTUnwrap(root.descendant(at: "plain") as? SplitController)
        XCTAssertEqual(plain.primaryFraction, SplitController.defaultPrimaryFraction)
        XCTAssertEqual(plain.minimumExpandedWidth, SplitController.defaultMinimumExpandedWidth)
    }

    func testBuild_whenSplitShownFromATreeFile_thenCollapsesAndExpandsWithTheWindow() async throws {
        let window = try TreeBuilder.build(
            try tree(
                """
                {"type": "SplitController", "id": "mail", "children": [{"type": "Controller", "id": "list"}, {"type": "Controller", "id": "detail"}]}
                """, window: #"{"width": 1280, "height": 800}"#), clock: ManualClock())
        window.makeVisible()
        let split = try XCTUnwrap(window.rootController as? SplitController)

        XCTAssertEqual(split.snapshot().collapsed, false)
        window.resize(to: Size(width: 600, height: 800))
        XCTAssertEqual(split.snapshot().collapsed, true)
        XCTAssertEqual(split.deepestCurrent.path, "mail/list")
    }

    func testBuild_whenNavigationHasSeveralChildren_thenTheRestArePushedOnTheRoot() async throws {
        let root = try TreeBuilder.makeRootController(
            for: try tree(
                """
                {"type": "NavigationController", "id": "nav", "children": [
                    {"type": "Controller", "id": "list"}, {"type": "Controller", "id": "detail"}, {"type": "Controller", "id": "edit"}]}
                """))

        XCTAssertEqual((root as? NavigationController)?.stack.map(\.identifier), ["list", "detail", "edit"])
    }

    func testBuild_whenNavigationHasDestinations_thenPushByIdentifierBuildsAFreshOne() async throws {
        let window = try TreeBuilder.build(
            try tree(
                """
                {"type": "NavigationController", "id": "nav", "children": [{"type": "Controller", "id": "list"}],
                 "destinations": [{"type": "StackController", "id": "detail", "title": "Detail", "spacing": 4,
                                   "children": [{"type": "Controller", "id": "text"}, {"type": "Controller", "id": "map"}]}]}
                """), clock: ManualClock())
        let navigation = try XCTUnwrap(window.rootController as? NavigationController)
        window.makeVisible()

        try navigation.push(identifier: "detail", animated: false)
        let first = navigation.top
        _ = navigation.pop(animated: false)
        try navigation.push(identifier: "detail", animated: false)

        XCTAssertEqual(navigation.top.path, "nav/detail")
        XCTAssertEqual(navigation.top.title, "Detail")
        XCTAssertEqual(navigation.top.restorationIdentifier, "detail")
        XCTAssertEqual((navigation.top as? StackController)?.spacing, 4)
        XCTAssertEqual(navigation.top.children.map(\.identifier), ["text", "map"])
        XCTAssertFalse(navigation.top === first)
        XCTAssertThrowsError(try navigation.push(identifier: "nowhere", animated: false)) { error in
            XCTAssertEqual(error as? ContainmentError, .noSuchChild)
        }
    }

    func testBuild_whenContentStateGiven_thenStartsInIt() async throws {
        let root = try TreeBuilder.makeRootController(
            for: try tree(
                """
                {"type": "MenuController", "id": "menu", "children": [
                    {"type": "ContentStateController", "id": "rendering", "children": [\(leaf)]},
                    {"type": "ContentStateController", "id": "failing", "state": "failed", "message": "offline"},
                    {"type": "ContentStateController", "id": "loading", "state": "loading"}]}
                """))

        let rendering = try XCTUnwrap(root.descendant(at: "rendering") as? ContentStateController)
        XCTAssertEqual(rendering.state?.name, "render")
        XCTAssertEqual(rendering.shownController?.identifier, "a")
        XCTAssertEqual((root.descendant(at: "failing") as? ContentStateController)?.state, .failed("offline"))
        let loading = try XCTUnwrap(root.descendant(at: "loading") as? ContentStateController)
        loading.loadViewIfNeeded()
        XCTAssertEqual(loading.state, .loading)
    }

    func testBuild_whenLoginAndKeyboardContainers_thenBuiltAroundTheirChildren() async throws {
        let window = try TreeBuilder.build(
            try tree(
                """
                {"type": "LoginStateController", "id": "session", "children": [
                    {"type": "KeyboardAwareController", "id": "login", "children": [{"type": "Controller", "id": "form"}]},
                    {"type": "Controller", "id": "home"}]}
                """), clock: ManualClock())
        window.makeVisible()
        let session = try XCTUnwrap(window.rootController as? LoginStateController)

        XCTAssertEqual(session.deepestCurrent.path, "session/login/form")
        XCTAssertTrue(session.descendant(at: "login") is KeyboardAwareController)
        try session.logIn(user: "ada", switching: false)
        XCTAssertEqual(session.deepestCurrent.path, "session/home")
    }

    func testBuild_whenTreeInvalid_thenEveryProblemLocatedFromTheTree() async throws {
        let tree = TreeSpec(
            name: "t",
            root: NodeSpec(
                kind: MenuController.Kind.self, id: "menu",
                children: [
                    NodeSpec(kind: LoginStateController.Kind.self, id: "session", children: [NodeSpec(kind: Controller.Kind.self, id: "out")]),
                    NodeSpec(kind: KeyboardAwareController.Kind.self, id: "keyboard"),
                ]))

        XCTAssertThrowsError(try TreeBuilder.build(tree, clock: ManualClock())) { error in
            XCTAssertEqual(
                (error as? TreeFileError)?.issues.map(\.description),
                [
                    "root.children[0]: a LoginStateController needs two or three children (logged out, logged in, and optionally locked)",
                    "root.children[1]: a KeyboardAwareController needs exactly one child (its content)",
                ])
        }
    }

    func testBuild_whenTypeUnknownInCode_thenErrorNotTrap() async throws {
        var node = NodeSpec(kind: Controller.Kind.self, id: "x")
        node.type = "Pager"

        XCTAssertThrowsError(try TreeBuilder.makeRootController(for: TreeSpec(name: "t", root: node))) { error in
            XCTAssertEqual((error as? TreeFileError)?.issues.map(\.location), ["root"])
        }
    }

    func testCheck_whenFileInvalid_thenProblemsLocatedFromTheFile() async throws {
        let file = TreeFile(trees: [
            TreeSpec(name: "good", root: NodeSpec(kind: Controller.Kind.self, id: "a")),
            TreeSpec(name: "bad", root: NodeSpec(kind: PaginatedController.Kind.self, id: "pages")),
        ])

        XCTAssertThrowsError(try TreeBuilder.check(file)) { error in
            XCTAssertEqual(
                (error as? TreeFileError)?.issues.map(\.description),
                ["trees[1].root: a PaginatedController needs at least one child (its pages)"])
        }
    }

    func testCheck_whenFileValid_thenNothingThrown() async throws {
        XCTAssertNoThrow(try TreeBuilder.check(try TreeFile.default))
    }

    private func tree(_ root: String, window: String? = nil) throws -> TreeSpec {
        let window = window.map { #", "window": \#($0)"# } ?? ""
        return try TreeFixtures.decode(#"{"trees": [{"name": "t"\#(window), "root": \#(root)}]}"#).trees[0]
    }
}
