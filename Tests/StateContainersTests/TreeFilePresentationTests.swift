import AppStateCore
import Foundation
import StateContainers
import XCTest

/// A tree's `presentations`: decoding, the checks that name their place, and what the
/// builder makes of them.
final class TreeFilePresentationTests: ModelTestCase {
    /// A file with one tree `t` whose root is a menu of `a` and `b`, with `presentations`
    /// (a JSON list).
    private func file(presentations: String) -> String {
        #"""
        {"trees": [{"name": "t",
                    "root": {"type": "MenuController", "id": "menu", "children": [{"type": "Controller", "id": "a"},
                                                                                  {"type": "Controller", "id": "b"}]},
                    "presentations": \#(presentations)}]}
        """#
    }

    private let screensaver =
        #"{"type": "PaginatedController", "id": "screensaver", "title": "Saver", "children": [{"type": "Controller", "id": "one"}, {"type": "Controller", "id": "two"}]}"#

    func testDecode_whenPresentationsAreListed_thenTheTreeHasThemAndEncodesThemBack() async throws {
        let file = try TreeFixtures.decode(
            file(presentations: "[\(screensaver), {\"type\": \"Controller\", \"id\": \"notice\", \"restorationId\": null}]"))

        let tree = file.trees[0]
        XCTAssertEqual(tree.presentations.map(\.id), ["screensaver", "notice"])
        XCTAssertEqual(tree.presentations.map(\.restorationId), ["screensaver", nil])
        XCTAssertEqual(try JSONDecoder().decode(TreeFile.self, from: JSONEncoder().encode(file)), file)
    }

    func testDecode_whenPresentationsAreLeftOut_thenNoneAndNoneEncoded() async throws {
        let file = try TreeFixtures.decode(TreeFixtures.file(root: #"{"type": "Controller", "id": "a"}"#))

        XCTAssertEqual(file.trees[0].presentations, [])
        let encoded = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(file.trees[0])) as? [String: Any])
        XCTAssertNil(encoded["presentations"])
    }

    func testValidate_whenPresentationIdentifiersClash_thenErrorsAtEachPresentation() async {
        let problems = TreeFixtures.problems(
            in: file(
                presentations: """
                    [\(screensaver), \(screensaver), {"type": "Controller", "id": "a"},
                     {"type": "Controller", "id": "c", "restorationId": "b"}, {"type": "Controller", "id": "d", "restorationId": "d"}]
                    """))

        XCTAssertEqual(
            problems,
            [
                #"trees[0].presentations[1]: duplicate presentation identifier "screensaver""#,
                #"trees[0].presentations[2]: presentation identifier "a" is a child's of the root: menu/a would name both"#,
                #"trees[0].presentations[3]: duplicate restoration identifier "b" under the root"#,
            ])
    }

    func testValidate_whenAPresentationIsInvalid_thenItsProblemsNameItsPlace() async {
        let problems = TreeFixtures.problems(
            in: file(
                presentations: """
                    [{"type": "Pager", "id": "p"}, {"type": "KeyboardAwareController", "id": "k"},
                     {"type": "Controller", "id": "x/y"}, {"type": "Controller", "id": "s", "spacing": 3}]
                    """))

        XCTAssertEqual(
            problems,
            [
                #"trees[0].presentations[0]: unknown type "Pager" (expected one of Controller, ContentStateController, LoginStateController, PaginatedController, KeyboardAwareController, MenuController, StackController, NavigationController, SplitController)"#,
                "trees[0].presentations[1]: a KeyboardAwareController needs exactly one child (its content)",
                #"trees[0].presentations[2]: identifier "x/y" must not contain "/""#,
                #"trees[0].presentations[3].spacing: "spacing" applies only to a StackController"#,
            ])
    }

    func testValidate_whenAPresentationHasADestinationsIdentifier_thenItClashesWithWhatTheRootMayPush() async {
        let json = #"""
            {"trees": [{"name": "t",
                        "root": {"type": "NavigationController", "id": "nav", "children": [{"type": "Controller", "id": "list"}],
                                 "destinations": [{"type": "Controller", "id": "detail"}]},
                        "presentations": [{"type": "Controller", "id": "detail"}]}]}
            """#

        XCTAssertEqual(
            TreeFixtures.problems(in: json),
            [#"trees[0].presentations[0]: presentation identifier "detail" is a child's of the root: nav/detail would name both"#])
    }

    func testBuild_thenTheRootPresentsEachPresentationAfreshAsTheFileSays() async throws {
        let file = try TreeFixtures.decode(
            file(presentations: "[\(screensaver), {\"type\": \"Controller\", \"id\": \"notice\", \"restorationId\": null}]"))
        let window = try TreeBuilder.build(file.trees[0], clock: clock)
        window.makeVisible()
        let root = try XCTUnwrap(window.rootController)

        try root.present(identifier: "screensaver", animated: false)
        let first = try XCTUnwrap(root.presentedViewController as? PaginatedController)
        XCTAssertEqual(first.path, "menu/screensaver")
        XCTAssertEqual(first.title, "Saver")
        XCTAssertEqual(first.restorationIdentifier, "screensaver")
        XCTAssertTrue(first.view.isOnScreen)
        root.dismiss(animated: false)

        try root.present(identifier: "screensaver", animated: false)
        XCTAssertFalse(root.presentedViewController === first, "each presentation builds it afresh")
        root.dismiss(animated: false)

        try root.present(identifier: "notice", style: .overFullScreen, animated: false)
        XCTAssertNil(root.presentedViewController?.restorationIdentifier)
        assertThrows(.noSuchChild) { try root.present(identifier: "nope", animated: false) }
    }

    func testRestoration_whenBuiltAgainFromTheFile_thenPresentsWhatWasPresented() async throws {
        let file = try TreeFixtures.decode(file(presentations: "[\(screensaver)]"))
        let root = try TreeBuilder.makeRootController(for: file.trees[0])
        try root.present(identifier: "screensaver", style: .overFullScreen, animated: false)
        try XCTUnwrap(root.presentedViewController as? PaginatedController).setPage(1, animated: false)

        let fresh = try TreeBuilder.makeRootController(for: file.trees[0])
        try fresh.decodeRestorableTree(root.restorableTreeSavedThroughJSON())

        XCTAssertEqual(fresh.deepestCurrent.path, "menu/screensaver/two")
        XCTAssertEqual(fresh.presentedViewController?.modalPresentationStyle, .overFullScreen)
    }

    func testCheck_whenTheFileHasPresentations_thenBuildsEachOnce() async throws {
        XCTAssertNoThrow(try TreeBuilder.check(TreeFixtures.decode(file(presentations: "[\(screensaver)]"))))
    }
}
