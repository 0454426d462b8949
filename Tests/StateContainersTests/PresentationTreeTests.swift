import AppStateCore
import StateContainers
import XCTest

/// A presentation in a tree: the presented controller's path, snapshot and place on the
/// deepest current chain, its restoration, and the misuse that throws.
final class PresentationTreeTests: ModelTestCase {
    /// A restorable `root` showing `child`, whose presentation context makes `attract` (a
    /// paginated controller of two pages) and `plain` (not restorable).
    private func makeRoot() throws -> (root: Controller, child: Controller) {
        let root = Controller(identifier: "root")
        let child = Controller(identifier: "child")
        try root.embed(child)
        for controller in [root, child] { controller.restorationIdentifier = controller.identifier }
        root.makePresentedController = { identifier in
            switch identifier {
            case "attract":
                let pages = try? PaginatedController(
                    identifier: "attract", pages: [Controller(identifier: "one"), Controller(identifier: "two")])
                pages?.restorationIdentifier = "attract"
                return pages
            case "plain": return Controller(identifier: "plain")
            default: return nil
            }
        }
        return (root, child)
    }

    // MARK: Paths and snapshots

    func testSnapshot_whilePresenting_thenListsThePresentedControllerLastAndMarked() async throws {
        let (root, _) = try makeRoot()
        show(root)

        try root.present(identifier: "attract", style: .overFullScreen, animated: false)
        let snapshot = root.snapshot()

        XCTAssertEqual(snapshot.children.map(\.path), ["root/child", "root/attract"])
        XCTAssertEqual(snapshot.children.map(\.presented), [nil, true])
        XCTAssertEqual(snapshot.current, nil, "the presented controller is not a current child")
        XCTAssertEqual(snapshot.deepestCurrentPath, "root/attract/one")
        XCTAssertEqual(root.deepestCurrent.path, "root/attract/one")
        XCTAssertTrue(snapshot.onScreen, "over full screen, the presenting view stays")
        XCTAssertEqual(snapshot.node(at: "root/attract")?.onScreen, true)
        XCTAssertTrue(root.descendant(atPath: "root/attract/two") != nil)
        XCTAssertEqual(root.presentedViewController?.path, "root/attract")
    }

    func testSnapshot_afterDismissal_thenThePresentedNodeIsGone() async throws {
        let (root, child) = try makeRoot()
        show(root)
        try root.present(identifier: "attract", animated: false)
        let presenting = root.snapshot()
        XCTAssertFalse(presenting.onScreen, "full screen takes the presenting view out")

        root.dismiss(animated: false)
        let snapshot = root.snapshot(reusing: presenting)

        XCTAssertEqual(snapshot.children.map(\.path), ["root/child"])
        XCTAssertEqual(snapshot.deepestCurrentPath, "root")
        XCTAssertTrue(snapshot.onScreen)
        XCTAssertNil(root.descendant(atPath: "root/attract"))
        XCTAssertTrue(child.view.isOnScreen)
    }

    func testPresentIdentifier_whenTheContextMakesNothingForIt_thenThrowsNoSuchChild() async throws {
        let (root, child) = try makeRoot()

        assertThrows(.noSuchChild) { try child.present(identifier: "nope", animated: false) }
        assertThrows(.noSuchChild) { try Controller(identifier: "alone").present(identifier: "attract", animated: false) }
        XCTAssertNil(root.presentedViewController)
    }

    // MARK: Misuse

    func testPresent_whenTheControllerIsInATree_thenThrowsInvalidArgumentOrCycle() async throws {
        let (root, child) = try makeRoot()
        let window = show(Controller(identifier: "elsewhere"))

        assertThrows(.cycle) { try child.present(root, animated: false) }
        assertThrows(.invalidArgument) { try root.present(child, animated: false) }
        assertThrows(.invalidArgument) { try root.present(window.rootController!, animated: false) }
        assertThrows(.invalidArgument) { try root.present(Controller(identifier: "a/b"), animated: false) }
        let presented = Controller(identifier: "presented")
        try root.present(presented, animated: false)
        assertThrows(.cycle) { try presented.present(root, animated: false) }
        assertThrows(.invalidArgument) { try Controller(identifier: "other").present(presented, animated: false) }
        XCTAssertTrue(root.presentedViewController === presented)
    }

    func testPresent_whenAChildHasTheIdentifier_thenThrowsDuplicateIdentifier() async throws {
        let (root, _) = try makeRoot()

        assertThrows(.duplicateIdentifier) { try root.present(Controller(identifier: "child"), animated: false) }
        XCTAssertNil(root.presentedViewController)
    }

    func testAddChild_whenPresentedOrNamedAsThePresented_thenThrows() async throws {
        let (root, child) = try makeRoot()
        let presented = Controller(identifier: "presented")
        try root.present(presented, animated: false)

        assertThrows(.invalidArgument) { try child.addChild(presented) }
        assertThrows(.invalidArgument) { try Controller(identifier: "other").addChild(root) }
        assertThrows(.duplicateIdentifier) { try root.addChild(Controller(identifier: "presented")) }
        XCTAssertTrue(presented.parent == nil && root.children.elementsEqual([child], by: ===))
    }

    func testPresent_whileAContainerInTheTreeSwaps_thenThrowsTransitionInProgress() async throws {
        let root = try NavigationController(identifier: "root", root: Controller(identifier: "list"))
        root.transitionDuration = .milliseconds(100)
        show(root)
        try root.push(Controller(identifier: "detail"), animated: true)

        assertThrows(.transitionInProgress) { try root.present(Controller(identifier: "modal"), animated: false) }

        clock.advance(by: .milliseconds(100))
        try root.present(Controller(identifier: "modal"), animated: false)
        XCTAssertEqual(root.presentedViewController?.identifier, "modal")
    }

    // MARK: Restoration

    func testRestoration_whilePresenting_thenAFreshTreePresentsItAgainWithItsState() async throws {
        let (root, _) = try makeRoot()
        show(root)
        try root.present(identifier: "attract", style: .overFullScreen, animated: false)
        try XCTUnwrap(root.presentedViewController as? PaginatedController).setPage(1, animated: false)

        let document = try root.restorableTreeSavedThroughJSON()
        let (fresh, _) = try makeRoot()
        try fresh.decodeRestorableTree(document)

        let presented = try XCTUnwrap(fresh.presentedViewController as? PaginatedController)
        XCTAssertEqual(presented.path, "root/attract")
        XCTAssertEqual(presented.modalPresentationStyle, .overFullScreen)
        XCTAssertEqual(presented.currentIndex, 1)
        XCTAssertFalse(presented.isViewLoaded, "restoring before the tree appears loads no view")
        show(fresh)
        XCTAssertTrue(presented.view.isOnScreen && fresh.view.isOnScreen)
        XCTAssertEqual(fresh.deepestCurrent.path, "root/attract/two")
    }

    func testRestoration_whenThePresentedControllerIsNotRestorable_thenAFreshTreePresentsNothing() async throws {
        let (root, _) = try makeRoot()
        try root.present(identifier: "plain", animated: false)

        let document = try root.restorableTreeSavedThroughJSON()
        let (fresh, _) = try makeRoot()
        try fresh.decodeRestorableTree(document)

        XCTAssertEqual(document.controllers["root"]?["presented"], .null)
        XCTAssertNil(fresh.presentedViewController)
    }

    func testRestoration_whenTheSavedStatePresentsNothing_thenDismissesWhatIsPresented() async throws {
        let (root, child) = try makeRoot()
        show(root)
        let saved = try root.restorableTreeSavedThroughJSON()
        try root.present(identifier: "attract", animated: false)

        try root.decodeRestorableTree(saved)

        XCTAssertNil(root.presentedViewController)
        XCTAssertTrue(child.view.isOnScreen)
    }

    func testRestoration_whenNothingCanBePresented_thenSavesNoPresentation() async throws {
        let root = Controller(identifier: "root")
        root.restorationIdentifier = "root"

        XCTAssertEqual(root.encodeRestorableTree().controllers, [:])
    }
}
