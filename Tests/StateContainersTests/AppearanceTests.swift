import AppStateCore
import StateContainers
import XCTest

/// Appearance forwarding order, off-screen children, manual forwarding and the
/// begin/end counter of the containment contract
/// (`Sources/StateContainers/StateContainers.docc/ContainmentContract.md`).
final class AppearanceTests: ModelTestCase {
    /// root → [a → [a1], b], every view installed, in a window that is not visible yet.
    private func makeTree() throws -> (window: Window, root: LoggingController, a: LoggingController, a1: LoggingController, b: LoggingController) {
        let root = controller("root")
        let a = controller("a")
        let a1 = controller("a1")
        let b = controller("b")
        try root.embed(a)
        try a.embed(a1)
        try root.embed(b)
        let window = Window(size: Size(width: 400, height: 300))
        window.rootController = root
        log.removeAll()
        return (window, root, a, a1, b)
    }

    // MARK: order

    func testMakeVisible_whenTreeIsInstalled_thenParentWillChildWillParentDidChildDid() async throws {
        let tree = try makeTree()

        tree.window.makeVisible()

        XCTAssertEqual(log.entries, [
            "root.viewWillAppear(false)",
            "a.viewWillAppear(false)",
            "a1.viewWillAppear(false)",
            "b.viewWillAppear(false)",
            "root.viewDidAppear(false)",
            "a.viewDidAppear(false)",
            "a1.viewDidAppear(false)",
            "b.viewDidAppear(false)",
        ])
        for controller in [tree.root, tree.a, tree.a1, tree.b] {
            XCTAssertEqual(controller.appearance, .appeared, controller.identifier)
        }
    }

    func testMakeVisible_whenCalledTwice_thenSecondCallSendsNothing() async throws {
        let tree = try makeTree()
        tree.window.makeVisible()
        log.removeAll()

        tree.window.makeVisible()

        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(warnings, [])
    }

    func testMakeVisible_whenRootViewNotLoaded_thenLoadsBeforeAppearing() async {
        let root = controller("root")
        let window = Window(size: Size(width: 400, height: 300))

        window.makeVisible()
        window.rootController = root

        XCTAssertEqual(log.entries, ["root.viewDidLoad", "root.viewWillAppear(false)", "root.viewDidAppear(false)"])
        XCTAssertTrue(root.view.isOnScreen)
        XCTAssertEqual(root.view.frame, Rect(x: 0, y: 0, width: 400, height: 300))
    }

    func testRootControllerReplacement_whenVisible_thenOldTreeDisappearsThenNewTreeAppears() async throws {
        let tree = try makeTree()
        tree.window.makeVisible()
        let newRoot = controller("new")
        let newChild = controller("newChild")
        try newRoot.embed(newChild)
        log.removeAll()

        tree.window.rootController = newRoot

        XCTAssertEqual(log.entries, [
            "root.viewWillDisappear(false)",
            "a.viewWillDisappear(false)",
            "a1.viewWillDisappear(false)",
            "b.viewWillDisappear(false)",
            "root.viewDidDisappear(false)",
            "a.viewDidDisappear(false)",
            "a1.viewDidDisappear(false)",
            "b.viewDidDisappear(false)",
            "new.viewWillAppear(false)",
            "newChild.viewWillAppear(false)",
            "new.viewDidAppear(false)",
            "newChild.viewDidAppear(false)",
        ])
        XCTAssertNil(tree.root.view.window)
        XCTAssertTrue(newRoot.view.window === tree.window)
    }

    func testRootControllerSetToNil_whenVisible_thenTreeDisappearsParentFirst() async throws {
        let tree = try makeTree()
        tree.window.makeVisible()
        log.removeAll()

        tree.window.rootController = nil

        XCTAssertEqual(log.entries, [
            "root.viewWillDisappear(false)",
            "a.viewWillDisappear(false)",
            "a1.viewWillDisappear(false)",
            "b.viewWillDisappear(false)",
            "root.viewDidDisappear(false)",
            "a.viewDidDisappear(false)",
            "a1.viewDidDisappear(false)",
            "b.viewDidDisappear(false)",
        ])
        XCTAssertFalse(tree.root.view.isOnScreen)
    }

    func testRemovingAContainersView_whenOnScreen_thenItsChildrenDisappearAfterIt() async throws {
        let tree = try makeTree()
        tree.window.makeVisible()
        log.removeAll()

        tree.a.unembed()

        XCTAssertEqual(log.entries, [
            "a.willMove(nil)",
            "a.viewWillDisappear(false) movingFrom=true",
            "a1.viewWillDisappear(false)",
            "a.viewDidDisappear(false) movingFrom=true",
            "a1.viewDidDisappear(false)",
            "a.didMove(nil)",
        ])
        XCTAssertEqual(tree.a1.appearance, .disappeared)
        XCTAssertEqual(tree.b.appearance, .appeared)
    }

    func testAppearance_insideCallbacks_thenAppearingOrDisappearingUntilDid() async throws {
        let root = controller("root")
        root.hook = { controller, name in controller.log.append("\(name): \(controller.appearance)") }
        let window = Window(size: Size(width: 1, height: 1))
        window.rootController = root
        log.removeAll()

        window.makeVisible()
        window.rootController = nil

        XCTAssertEqual(log.entries, [
            "root.viewWillAppear(false)", "viewWillAppear: appearing",
            "root.viewDidAppear(false)", "viewDidAppear: appeared",
            "root.viewWillDisappear(false)", "viewWillDisappear: disappearing",
            "root.viewDidDisappear(false)", "viewDidDisappear: disappeared",
        ])
    }

    // MARK: children added off screen

    func testChildrenAddedOffScreen_whenParentAppears_thenOnlyInstalledChildrenGetCallbacks() async throws {
        let root = controller("root")
        let window = Window(size: Size(width: 400, height: 300))
        window.rootController = root
        log.removeAll()
        let installed = controller("installed")
        let notInstalled = controller("notInstalled")
        let notLoaded = controller("notLoaded")
        try root.embed(installed)
        try root.addChild(notInstalled)
        notInstalled.loadViewIfNeeded()
        notInstalled.didMove(toParent: root)
        try root.addChild(notLoaded)
        notLoaded.didMove(toParent: root)
        XCTAssertEqual(log.entries, [
            "installed.willMove(root)",
            "installed.viewDidLoad",
            "installed.didMove(root)",
            "notInstalled.willMove(root)",
            "notInstalled.viewDidLoad",
            "notInstalled.didMove(root)",
            "notLoaded.willMove(root)",
            "notLoaded.didMove(root)",
        ], "nothing appears while the window is not visible")
        log.removeAll()

        window.makeVisible()

        XCTAssertEqual(log.entries, [
            "root.viewWillAppear(false)",
            "installed.viewWillAppear(false)",
            "root.viewDidAppear(false)",
            "installed.viewDidAppear(false)",
        ])
        XCTAssertEqual(notInstalled.appearance, .disappeared)
        XCTAssertFalse(notLoaded.isViewLoaded)
    }

    func testChildrenAddedWhileParentIsInNoWindow_whenParentIsEmbeddedOnScreen_thenTheyAppearAfterIt() async throws {
        let root = controller("root")
        let window = visibleWindow(root: root)
        let parent = controller("parent")
        let child = controller("child")
        try parent.embed(child)
        log.removeAll()

        try root.embed(parent)

        XCTAssertEqual(log.entries, [
            "parent.willMove(root)",
            "parent.viewWillAppear(false) movingTo=true",
            "child.viewWillAppear(false)",
            "parent.viewDidAppear(false) movingTo=true",
            "child.viewDidAppear(false)",
            "parent.didMove(root)",
        ])
        withExtendedLifetime(window) {}
    }

    func testChildEmbeddedInsideParentsViewWillAppear_thenItsDidComesAfterTheParentsDid() async throws {
        let root = controller("root")
        let child = controller("child")
        root.hook = { root, name in
            guard name == "viewWillAppear" else { return }
            expectNoThrow { try root.embed(child) }
        }
        let window = Window(size: Size(width: 400, height: 300))
        window.rootController = root
        log.removeAll()

        window.makeVisible()

        XCTAssertEqual(log.entries, [
            "root.viewWillAppear(false)",
            "child.willMove(root)",
            "child.viewDidLoad",
            "child.viewWillAppear(false) movingTo=true",
            "child.didMove(root)",
            "root.viewDidAppear(false)",
            "child.viewDidAppear(false)",
        ])
        XCTAssertEqual(child.appearance, .appeared)
    }

    func testChildSwappedInsideParentsViewWillAppear_thenOnlyTheChildInstalledAfterwardsAppears() async throws {
        let root = controller("root")
        let old = controller("old")
        let new = controller("new")
        try root.embed(old)
        root.hook = { root, name in
            guard name == "viewWillAppear" else { return }
            old.unembed()
            expectNoThrow { try root.embed(new) }
        }
        let window = Window(size: Size(width: 400, height: 300))
        window.rootController = root
        log.removeAll()

        window.makeVisible()

        XCTAssertEqual(log.entries, [
            "root.viewWillAppear(false)",
            "old.willMove(nil)",
            "old.didMove(nil)",
            "new.willMove(root)",
            "new.viewDidLoad",
            "new.viewWillAppear(false) movingTo=true",
            "new.didMove(root)",
            "root.viewDidAppear(false)",
            "new.viewDidAppear(false)",
        ])
        XCTAssertEqual(old.appearance, .disappeared)
        XCTAssertEqual(new.appearance, .appeared)
        XCTAssertEqual(warnings, [])
    }

    // MARK: shouldAutomaticallyForwardAppearanceMethods == false

    func testManualForwarding_whenWindowBecomesVisible_thenChildrenGetNothing() async throws {
        let root = controller("root")
        root.forwardsAppearance = false
        let child = controller("child")
        try root.embed(child)
        let window = Window(size: Size(width: 400, height: 300))
        window.rootController = root
        log.removeAll()

        window.makeVisible()
        window.rootController = nil

        XCTAssertEqual(log.entries, [
            "root.viewWillAppear(false)",
            "root.viewDidAppear(false)",
            "root.viewWillDisappear(false)",
            "root.viewDidDisappear(false)",
        ])
        XCTAssertEqual(child.appearance, .disappeared)
    }

    func testManualForwarding_whenChildIsEmbeddedOrRemovedOnScreen_thenChildGetsNothing() async throws {
        let root = controller("root")
        root.forwardsAppearance = false
        let child = controller("child")
        let window = visibleWindow(root: root)

        try root.embed(child)
        child.unembed()

        XCTAssertEqual(log.entries, [
            "child.willMove(root)",
            "child.viewDidLoad",
            "child.didMove(root)",
            "child.willMove(nil)",
            "child.didMove(nil)",
        ])
        withExtendedLifetime(window) {}
    }

    func testManualForwarding_whenContainerDrivesBeginAndEnd_thenChildGetsThemInParentOrder() async throws {
        let root = controller("root")
        root.forwardsAppearance = false
        let child = controller("child")
        try root.embed(child)
        root.hook = { _, name in
            switch name {
            case "viewWillAppear": child.beginAppearanceTransition(true, animated: false)
            case "viewDidAppear": child.endAppearanceTransition()
            case "viewWillDisappear": child.beginAppearanceTransition(false, animated: true)
            case "viewDidDisappear": child.endAppearanceTransition()
            default: break
            }
        }
        let window = Window(size: Size(width: 400, height: 300))
        window.rootController = root
        log.removeAll()

        window.makeVisible()
        window.rootController = nil

        XCTAssertEqual(log.entries, [
            "root.viewWillAppear(false)",
            "child.viewWillAppear(false)",
            "root.viewDidAppear(false)",
            "child.viewDidAppear(false)",
            "root.viewWillDisappear(false)",
            "child.viewWillDisappear(true)",
            "root.viewDidDisappear(false)",
            "child.viewDidDisappear(true)",
        ])
        XCTAssertEqual(warnings, [])
    }

    func testManualForwarding_whenGrandchildrenAreInstalled_thenTheDrivenChildForwardsToThem() async throws {
        let root = controller("root")
        root.forwardsAppearance = false
        let child = controller("child")
        let grandchild = controller("grandchild")
        try root.embed(child)
        try child.embed(grandchild)
        let window = visibleWindow(root: root)

        child.beginAppearanceTransition(true, animated: false)
        child.endAppearanceTransition()

        XCTAssertEqual(log.entries, [
            "child.viewWillAppear(false)",
            "grandchild.viewWillAppear(false)",
            "child.viewDidAppear(false)",
            "grandchild.viewDidAppear(false)",
        ])
        withExtendedLifetime(window) {}
    }

    // MARK: the begin/end counter

    func testNestedBeginAndEnd_whenSameDirection_thenOneWillAndOneDidOnTheLastEnd() async {
        let c = controller("c")

        c.beginAppearanceTransition(true, animated: true)
        c.beginAppearanceTransition(true, animated: true)
        XCTAssertEqual(log.entries, ["c.viewWillAppear(true)"])
        c.endAppearanceTransition()
        XCTAssertEqual(log.entries, ["c.viewWillAppear(true)"], "the first end is not the last one")
        XCTAssertEqual(c.appearance, .appearing)
        c.endAppearanceTransition()

        XCTAssertEqual(log.entries, ["c.viewWillAppear(true)", "c.viewDidAppear(true)"])
        XCTAssertEqual(c.appearance, .appeared)
        XCTAssertEqual(warnings, [])
    }

    func testNestedBeginAndEnd_whenParentForwards_thenChildrenAlsoGetOneWillAndOneDid() async throws {
        let parent = controller("parent")
        let child = controller("child")
        try parent.embed(child)
        log.removeAll()

        parent.beginAppearanceTransition(true, animated: false)
        parent.beginAppearanceTransition(true, animated: false)
        parent.endAppearanceTransition()
        parent.endAppearanceTransition()

        XCTAssertEqual(log.entries, [
            "parent.viewWillAppear(false)",
            "child.viewWillAppear(false)",
            "parent.viewDidAppear(false)",
            "child.viewDidAppear(false)",
        ])
    }

    func testBeginInTheOppositeDirection_beforeEnd_thenCancelsWithTheOppositeWillAndEndsDisappeared() async {
        let c = controller("c")

        c.beginAppearanceTransition(true, animated: true)
        c.beginAppearanceTransition(false, animated: true)
        c.endAppearanceTransition()

        XCTAssertEqual(log.entries, ["c.viewWillAppear(true)", "c.viewWillDisappear(true)", "c.viewDidDisappear(true)"])
        XCTAssertEqual(c.appearance, .disappeared)
        XCTAssertEqual(warnings, [])
    }

    func testBeginInTheOppositeDirection_whenDisappearingIsCancelled_thenEndsAppeared() async {
        let c = controller("c")
        c.beginAppearanceTransition(true, animated: false)
        c.endAppearanceTransition()
        log.removeAll()

        c.beginAppearanceTransition(false, animated: true)
        c.beginAppearanceTransition(true, animated: true)
        c.endAppearanceTransition()

        XCTAssertEqual(log.entries, ["c.viewWillDisappear(true)", "c.viewWillAppear(true)", "c.viewDidAppear(true)"])
        XCTAssertEqual(c.appearance, .appeared)
    }

    func testBeginInTheOppositeDirection_whenParentForwards_thenChildrenAreCancelledToo() async throws {
        let parent = controller("parent")
        let child = controller("child")
        try parent.embed(child)
        log.removeAll()

        parent.beginAppearanceTransition(true, animated: true)
        parent.beginAppearanceTransition(false, animated: true)
        parent.endAppearanceTransition()

        XCTAssertEqual(log.entries, [
            "parent.viewWillAppear(true)",
            "child.viewWillAppear(true)",
            "parent.viewWillDisappear(true)",
            "child.viewWillDisappear(true)",
            "parent.viewDidDisappear(true)",
            "child.viewDidDisappear(true)",
        ])
        XCTAssertEqual(child.appearance, .disappeared)
        XCTAssertEqual(warnings, [])
    }

    func testEndAppearanceTransition_withoutBegin_thenWarnsAndSendsNothing() async {
        let c = controller("c")

        c.endAppearanceTransition()

        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(warnings.map(\.identifier), ["c"])
        XCTAssertEqual(c.appearance, .disappeared)
    }

    func testEndAppearanceTransition_onceMoreThanBegin_thenWarnsAndSendsNothingMore() async {
        let c = controller("c")
        c.beginAppearanceTransition(true, animated: false)
        c.endAppearanceTransition()

        c.endAppearanceTransition()

        XCTAssertEqual(log.entries, ["c.viewWillAppear(false)", "c.viewDidAppear(false)"])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(c.appearance, .appeared)
    }

    func testBeginAppearanceTransition_whenAlreadyInThatState_thenWarnsAndSendsNothing() async {
        let c = controller("c")

        c.beginAppearanceTransition(false, animated: false)
        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(warnings.count, 1, "disappearing while disappeared")

        c.beginAppearanceTransition(true, animated: false)
        c.endAppearanceTransition()
        log.removeAll()
        c.beginAppearanceTransition(true, animated: false)

        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(warnings.count, 2, "appearing while appeared")
        XCTAssertEqual(warnings.map(\.identifier), ["c", "c"])
        XCTAssertEqual(c.appearance, .appeared)
    }

    func testUnbalancedBegin_thenTheFollowingEndIsAlsoIgnored() async {
        let c = controller("c")

        c.beginAppearanceTransition(false, animated: false)
        c.endAppearanceTransition()

        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(warnings.count, 2)
        XCTAssertEqual(c.appearance, .disappeared)
    }
}
