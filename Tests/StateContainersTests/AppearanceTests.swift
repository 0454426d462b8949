import AppStateCore
import StateContainers
import XCTest

/// Appearance forwarding order, off-screen children, manual forwarding and the
/// begin/end counter of the containment contract
/// (`Sources/StateContainers/StateContainers.docc/ContainmentContract.md`).
final class AppearanceTests: ModelTestCase {
    /// root → [a → [a1], b], every view installed, in a window that is not visible yet.
    private func makeTree() throws -> (window: Window, root: LoggingController, a: LoggingController, a1: LoggingController, b: LoggingController) {
        let (root, a, a1) = try embedded("a1", in: "a", in: "root")
        let b = controller("b")
        try root.embed(b)
        let window = hiddenWindow(root: root)
        return (window, root, a, a1, b)
    }

    /// Shows `root` in a visible window, running `body` inside root's `viewWillAppear`, with
    /// the log cleared of the set-up callbacks.
    private func show(_ root: LoggingController, runningInViewWillAppear body: @escaping (LoggingController) throws -> Void) {
        root.hook = { root, name in
            guard name == "viewWillAppear" else { return }
            expectNoThrow { try body(root) }
        }
        root.loadViewIfNeeded()
        log.removeAll()
        show(root, size: Size(width: 400, height: 300))
    }

    /// A `root` that does not forward appearance callbacks to its children, and its `child`.
    private func makeManuallyForwardingRoot() -> (root: LoggingController, child: LoggingController) {
        let root = controller("root")
        root.forwardsAppearance = false
        return (root, controller("child"))
    }

    // MARK: order

    func testMakeVisible_whenTreeIsInstalled_thenParentWillChildWillParentDidChildDid() async throws {
        let tree = try makeTree()

        tree.window.makeVisible()

        XCTAssertEqual(log.entries, log.appearing("root", "a", "a1", "b"))
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
        let (newRoot, _) = try embedded("newChild", in: "new")

        tree.window.rootController = newRoot

        XCTAssertEqual(log.entries, log.disappearing("root", "a", "a1", "b") + log.appearing("new", "newChild"))
        XCTAssertNil(tree.root.view.window)
        XCTAssertTrue(newRoot.view.window === tree.window)
    }

    func testRootControllerSetToNil_whenVisible_thenTreeDisappearsParentFirst() async throws {
        let tree = try makeTree()
        tree.window.makeVisible()
        log.removeAll()

        tree.window.rootController = nil

        XCTAssertEqual(log.entries, log.disappearing("root", "a", "a1", "b"))
        XCTAssertFalse(tree.root.view.isOnScreen)
    }

    func testRemovingAContainersView_whenOnScreen_thenItsChildrenDisappearAfterIt() async throws {
        let tree = try makeTree()
        tree.window.makeVisible()
        log.removeAll()

        tree.a.unembed()

        XCTAssertEqual(log.entries, log.unembedding("a", with: "a1"))
        XCTAssertEqual(tree.a1.appearance, .disappeared)
        XCTAssertEqual(tree.b.appearance, .appeared)
    }

    func testAppearance_insideCallbacks_thenAppearingOrDisappearingUntilDid() async throws {
        let root = controller("root")
        root.hook = { controller, name in controller.log.append("\(name): \(controller.appearance)") }
        let window = hiddenWindow(root: root)

        window.makeVisible()
        window.rootController = nil

        XCTAssertEqual(
            log.entries,
            [
                "root.viewWillAppear(false)", "viewWillAppear: appearing",
                "root.viewDidAppear(false)", "viewDidAppear: appeared",
                "root.viewWillDisappear(false)", "viewWillDisappear: disappearing",
                "root.viewDidDisappear(false)", "viewDidDisappear: disappeared",
            ])
    }

    // MARK: children added off screen

    func testChildrenAddedOffScreen_whenParentAppears_thenOnlyInstalledChildrenGetCallbacks() async throws {
        let root = controller("root")
        let window = hiddenWindow(root: root)
        let installed = controller("installed")
        let notInstalled = controller("notInstalled")
        let notLoaded = controller("notLoaded")
        try root.embed(installed)
        try root.addChild(notInstalled)
        notInstalled.loadViewIfNeeded()
        notInstalled.didMove(toParent: root)
        try root.addChild(notLoaded)
        notLoaded.didMove(toParent: root)
        XCTAssertEqual(
            log.entries,
            [
                "installed.willMove(root)", "installed.viewDidLoad", "installed.didMove(root)",
                "notInstalled.willMove(root)", "notInstalled.viewDidLoad", "notInstalled.didMove(root)",
                "notLoaded.willMove(root)", "notLoaded.didMove(root)",
            ], "nothing appears while the window is not visible")
        log.removeAll()

        window.makeVisible()

        XCTAssertEqual(log.entries, log.appearing("root", "installed"))
        XCTAssertEqual(notInstalled.appearance, .disappeared)
        XCTAssertFalse(notLoaded.isViewLoaded)
    }

    /// Also pins that only the embedded parent is moving to a parent, not its children.
    func testChildrenAddedWhileParentIsInNoWindow_whenParentIsEmbeddedOnScreen_thenTheyAppearAfterIt() async throws {
        let root = controller("root")
        let window = visibleWindow(root: root)
        let (parent, _) = try embedded("child", in: "parent")

        try root.embed(parent)

        XCTAssertEqual(log.entries, log.embedding("parent", in: "root", with: "child"))
        withExtendedLifetime(window) {}
    }

    func testChildEmbeddedInsideParentsViewWillAppear_thenItsDidComesAfterTheParentsDid() async throws {
        let root = controller("root")
        let child = controller("child")

        show(root, runningInViewWillAppear: { root in try root.embed(child) })

        XCTAssertEqual(
            log.entries,
            [
                "root.viewWillAppear(false)",
                "child.willMove(root)", "child.viewDidLoad", "child.viewWillAppear(false) movingTo=true", "child.didMove(root)",
                "root.viewDidAppear(false)", "child.viewDidAppear(false)",
            ])
        XCTAssertEqual(child.appearance, .appeared)
    }

    func testChildSwappedInsideParentsViewWillAppear_thenOnlyTheChildInstalledAfterwardsAppears() async throws {
        let (root, old) = try embedded("old", in: "root")
        let new = controller("new")

        show(
            root,
            runningInViewWillAppear: { root in
                old.unembed()
                try root.embed(new)
            })

        XCTAssertEqual(
            log.entries,
            [
                "root.viewWillAppear(false)",
                "old.willMove(nil)", "old.didMove(nil)",
                "new.willMove(root)", "new.viewDidLoad", "new.viewWillAppear(false) movingTo=true", "new.didMove(root)",
                "root.viewDidAppear(false)", "new.viewDidAppear(false)",
            ])
        XCTAssertEqual(old.appearance, .disappeared)
        XCTAssertEqual(new.appearance, .appeared)
        XCTAssertEqual(warnings, [])
    }

    // MARK: shouldAutomaticallyForwardAppearanceMethods == false

    func testManualForwarding_whenWindowBecomesVisible_thenChildrenGetNothing() async throws {
        let (root, child) = makeManuallyForwardingRoot()
        try root.embed(child)
        let window = hiddenWindow(root: root)

        window.makeVisible()
        window.rootController = nil

        XCTAssertEqual(log.entries, log.appearing("root") + log.disappearing("root"))
        XCTAssertEqual(child.appearance, .disappeared)
    }

    func testManualForwarding_whenChildIsEmbeddedOrRemovedOnScreen_thenChildGetsNothing() async throws {
        let (root, child) = makeManuallyForwardingRoot()
        let window = visibleWindow(root: root)

        try root.embed(child)
        child.unembed()

        XCTAssertEqual(
            log.entries,
            [
                "child.willMove(root)", "child.viewDidLoad", "child.didMove(root)",
                "child.willMove(nil)", "child.didMove(nil)",
            ])
        withExtendedLifetime(window) {}
    }

    func testManualForwarding_whenContainerDrivesBeginAndEnd_thenChildGetsThemInParentOrder() async throws {
        let (root, child) = makeManuallyForwardingRoot()
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
        let window = hiddenWindow(root: root)

        window.makeVisible()
        window.rootController = nil

        XCTAssertEqual(
            log.entries,
            log.appearing("root", "child") + [
                "root.viewWillDisappear(false)",
                "child.viewWillDisappear(true)",
                "root.viewDidDisappear(false)",
                "child.viewDidDisappear(true)",
            ])
        XCTAssertEqual(warnings, [])
    }

    func testManualForwarding_whenGrandchildrenAreInstalled_thenTheDrivenChildForwardsToThem() async throws {
        let (root, child) = makeManuallyForwardingRoot()
        try root.embed(child)
        try child.embed(controller("grandchild"))
        let window = visibleWindow(root: root)

        child.beginAppearanceTransition(true, animated: false)
        child.endAppearanceTransition()

        XCTAssertEqual(log.entries, log.appearing("child", "grandchild"))
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
        let (parent, _) = try embedded("child", in: "parent")

        parent.beginAppearanceTransition(true, animated: false)
        parent.beginAppearanceTransition(true, animated: false)
        parent.endAppearanceTransition()
        parent.endAppearanceTransition()

        XCTAssertEqual(log.entries, log.appearing("parent", "child"))
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
        let (parent, child) = try embedded("child", in: "parent")

        parent.beginAppearanceTransition(true, animated: true)
        parent.beginAppearanceTransition(false, animated: true)
        parent.endAppearanceTransition()

        XCTAssertEqual(
            log.entries,
            [
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
