import AppStateCore
import StateContainers
import XCTest

/// The four calls of the containment contract and its misuse rules, apart from appearance
/// ordering and transitions: exact callback logs, compared whole. The contract is
/// `Sources/StateContainers/StateContainers.docc/ContainmentContract.md`.
final class ContainmentContractTests: ModelTestCase {
    /// A `root` in a window, visible unless asked, and a `child` not yet added to it, its view
    /// loaded when asked: the starting point of the tests of the three steps that add a child.
    private func makeRootAndChild(
        visible: Bool = true, loadingChildView: Bool = false
    ) -> (window: Window, root: LoggingController, child: LoggingController) {
        let root = controller("root")
        let child = controller("child")
        if loadingChildView { child.loadViewIfNeeded() }
        return (visible ? visibleWindow(root: root) : hiddenWindow(root: root), root, child)
    }

    // MARK: addChild

    func testAddChild_whenChildHasNoParent_thenSendsWillMoveBeforeAppending() async {
        let parent = controller("parent")
        let child = controller("child")
        child.hook = { child, name in
            guard name == "willMove" else { return }
            child.log.append("inChildren=\(parent.children.contains { $0 === child }) parent=\(child.parent?.identifier ?? "nil")")
        }

        XCTAssertNoThrow(try parent.addChild(child))

        XCTAssertEqual(log.entries, ["child.willMove(parent)", "inChildren=false parent=nil"])
        XCTAssertTrue(parent.children.elementsEqual([child], by: ===))
        XCTAssertTrue(child.parent === parent)
    }

    func testAddChild_whenCalled_thenDoesNotSendDidMove() async throws {
        let parent = controller("parent")
        let child = controller("child")

        try parent.addChild(child)
        child.didMove(toParent: parent)

        XCTAssertEqual(log.entries, ["child.willMove(parent)", "child.didMove(parent)"])
    }

    func testAddChild_whenChildHasAnotherParent_thenRemovesItFirst() async throws {
        let (oldParent, child) = try embedded("child", in: "old")
        let newParent = controller("new")

        try newParent.addChild(child)

        XCTAssertEqual(
            log.entries,
            [
                "child.willMove(nil)",
                "child.didMove(nil)",
                "child.willMove(new)",
            ])
        XCTAssertTrue(oldParent.children.isEmpty)
        XCTAssertTrue(newParent.children.elementsEqual([child], by: ===))
        XCTAssertTrue(child.parent === newParent)
        XCTAssertNil(child.view.superview, "the removal protocol takes the view out of the old parent")
    }

    func testAddChild_whenChildHasAnotherParentOnScreen_thenItDisappearsAndLeavesBeforeWillMove() async throws {
        let (root, _, child) = try embedded("child", in: "old", in: "root")
        let newParent = controller("new")
        try root.embed(newParent)
        let window = visibleWindow(root: root)

        try newParent.addChild(child)
        newParent.view.addSubview(child.view)
        child.didMove(toParent: newParent)

        XCTAssertEqual(log.entries, log.unembedding("child") + log.embedding("child", in: "new"))
        XCTAssertEqual(child.appearance, .appeared)
        withExtendedLifetime(window) {}
    }

    func testAddChild_whenAlreadyAChildOfTheReceiver_thenDoesNothing() async throws {
        let (parent, child) = try embedded("child", in: "parent")

        try parent.addChild(child)

        XCTAssertEqual(log.entries, [])
        XCTAssertTrue(parent.children.elementsEqual([child], by: ===))
        XCTAssertTrue(child.view.superview === parent.view)
    }

    func testAddChild_whenChildIsAWindowsRoot_thenItLeavesThatWindowFirst() async throws {
        let (root, _) = try embedded("grandchild", in: "root")
        let window = visibleWindow(root: root)
        let parent = controller("parent")

        try parent.addChild(root)

        XCTAssertEqual(log.entries, log.disappearing("root", "grandchild") + ["root.willMove(parent)"])
        XCTAssertNil(window.rootController)
        XCTAssertNil(root.view.window)
        XCTAssertFalse(root.view.isOnScreen)
        XCTAssertTrue(root.parent === parent)
    }

    func testAddChildAndEmbed_whenViewNotLoaded_thenAddChildDoesNotLoadIt() async throws {
        let parent = controller("parent")
        let child = controller("child")

        try parent.addChild(child)
        XCTAssertFalse(child.isViewLoaded)
        XCTAssertFalse(parent.isViewLoaded)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)

        XCTAssertEqual(
            log.entries,
            [
                "child.willMove(parent)",
                "parent.viewDidLoad",
                "child.viewDidLoad",
                "child.didMove(parent)",
            ])
    }

    // MARK: addSubview

    func testAddSubview_whenContainerIsInAVisibleWindow_thenChildAppearsBeforeAddSubviewReturns() async throws {
        let (window, root, child) = makeRootAndChild(loadingChildView: true)

        try root.addChild(child)
        log.append("addChild returned")
        root.view.addSubview(child.view)
        log.append("addSubview returned")
        child.didMove(toParent: root)

        XCTAssertEqual(
            log.entries,
            [
                "child.willMove(root)",
                "addChild returned",
                "child.viewWillAppear(false) movingTo=true",
                "child.viewDidAppear(false) movingTo=true",
                "addSubview returned",
                "child.didMove(root)",
            ])
        XCTAssertEqual(child.appearance, .appeared)
        withExtendedLifetime(window) {}
    }

    func testAddSubview_whenInstalledInANestedPlainView_thenChildStillAppears() async throws {
        let (window, root, child) = makeRootAndChild()
        let content = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        root.view.addSubview(content)

        try root.embed(child, in: content)

        XCTAssertEqual(log.entries, log.embedding("child", in: "root", loadingView: true))
        withExtendedLifetime(window) {}
    }

    func testAddSubview_whenChildAlreadyFinishedMoving_thenAppearsWithoutMovingToParent() async throws {
        let (window, root, child) = makeRootAndChild(loadingChildView: true)
        try root.addChild(child)
        child.didMove(toParent: root)
        log.removeAll()

        root.view.addSubview(child.view)

        XCTAssertEqual(log.entries, ["child.viewWillAppear(false)", "child.viewDidAppear(false)"])
        withExtendedLifetime(window) {}
    }

    func testAddSubview_whenWindowIsNotVisible_thenSendsNothing() async throws {
        let (window, root, child) = makeRootAndChild(visible: false, loadingChildView: true)

        try root.embed(child)

        XCTAssertEqual(log.entries, ["child.willMove(root)", "child.didMove(root)"])
        XCTAssertEqual(child.appearance, .disappeared)
        withExtendedLifetime(window) {}
    }

    func testAddSubview_whenContainerIsInNoWindow_thenSendsNothing() async throws {
        let parent = controller("parent")
        let child = controller("child")
        parent.loadViewIfNeeded()
        child.loadViewIfNeeded()
        log.removeAll()

        try parent.embed(child)

        XCTAssertEqual(log.entries, ["child.willMove(parent)", "child.didMove(parent)"])
        XCTAssertEqual(child.appearance, .disappeared)
    }

    // MARK: removeFromParent

    func testRemoveFromParent_whenCalled_thenLeavesChildrenAndClearsParentBeforeDidMove() async throws {
        let (parent, child) = try embedded("child", in: "parent")
        child.hook = { child, name in
            guard name == "didMove" else { return }
            child.log.append("inChildren=\(parent.children.contains { $0 === child }) parent=\(child.parent?.identifier ?? "nil")")
        }

        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()

        XCTAssertEqual(
            log.entries,
            [
                "child.willMove(nil)",
                "child.didMove(nil)",
                "inChildren=false parent=nil",
            ])
        XCTAssertTrue(parent.children.isEmpty)
        XCTAssertNil(child.parent)
    }

    func testRemoveFromParent_whenCalledAlone_thenSendsOnlyDidMoveAndLeavesTheView() async throws {
        let (parent, child) = try embedded("child", in: "parent")

        child.removeFromParent()

        XCTAssertEqual(log.entries, ["child.didMove(nil)"])
        XCTAssertTrue(child.view.superview === parent.view, "removing the view is the caller's job, as in UIKit")
    }

    func testRemoveFromParent_whenNoParent_thenDoesNothing() async {
        let child = controller("child")

        child.removeFromParent()

        XCTAssertEqual(log.entries, [])
        XCTAssertNil(child.parent)
        XCTAssertEqual(warnings, [])
    }

    func testRemoveFromParent_whenOtherSiblingsExist_thenKeepsTheirOrder() async throws {
        let parent = controller("parent")
        let a = controller("a")
        let b = controller("b")
        let c = controller("c")
        try parent.addChild(a)
        try parent.addChild(b)
        try parent.addChild(c)

        b.removeFromParent()

        XCTAssertEqual(parent.children.map(\.identifier), ["a", "c"])
    }

    // MARK: removeFromSuperview

    func testRemoveFromSuperview_whenOnScreen_thenDisappearsBeforeReturning() async throws {
        let (root, child) = try embedded("child", in: "root")
        let window = visibleWindow(root: root)

        child.view.removeFromSuperview()
        log.append("removeFromSuperview returned")

        XCTAssertEqual(log.entries, log.disappearing("child") + ["removeFromSuperview returned"])
        XCTAssertEqual(child.appearance, .disappeared)
        XCTAssertTrue(child.parent === root, "removing the view does not remove the controller")
        withExtendedLifetime(window) {}
    }

    func testRemoveFromSuperview_whenOffScreen_thenSendsNothing() async throws {
        let (root, child) = try embedded("child", in: "root")
        let window = hiddenWindow(root: root)

        child.view.removeFromSuperview()

        XCTAssertEqual(log.entries, [])
        withExtendedLifetime(window) {}
    }

    func testUnembed_whenOnScreen_thenRunsTheFullRemovalProtocol() async throws {
        let (root, child) = try embedded("child", in: "root")
        let window = visibleWindow(root: root)

        child.unembed()

        XCTAssertEqual(log.entries, log.unembedding("child"))
        XCTAssertNil(child.parent)
        XCTAssertNil(child.view.superview)
        XCTAssertTrue(root.children.isEmpty)
        withExtendedLifetime(window) {}
    }

    func testUnembed_whenNoParent_thenDoesNothing() async {
        let child = controller("child")
        child.unembed()
        XCTAssertEqual(log.entries, [])
    }

    func testEmbed_whenOnScreen_thenRunsTheFullAddProtocol() async throws {
        let (window, root, child) = makeRootAndChild()

        try root.embed(child)

        XCTAssertEqual(log.entries, log.embedding("child", in: "root", loadingView: true))
        XCTAssertTrue(child.view.superview === root.view)
        withExtendedLifetime(window) {}
    }

    // MARK: misuse

    func testAddChild_whenChildIsTheReceiver_thenThrowsCycleAndChangesNothing() async {
        let parent = controller("parent")

        assertThrows(.cycle) { try parent.addChild(parent) }

        XCTAssertTrue(parent.children.isEmpty)
        XCTAssertNil(parent.parent)
        XCTAssertEqual(log.entries, [])
    }

    func testAddChild_whenChildIsAnAncestor_thenThrowsCycleAndChangesNothing() async throws {
        let (grandparent, parent, child) = try embedded("child", in: "parent", in: "grandparent")

        assertThrows(.cycle) { try child.addChild(grandparent) }
        assertThrows(.cycle) { try child.addChild(parent) }

        XCTAssertTrue(child.children.isEmpty)
        XCTAssertNil(grandparent.parent)
        XCTAssertTrue(parent.parent === grandparent)
        XCTAssertTrue(child.parent === parent)
        XCTAssertEqual(log.entries, [])
    }

    func testAddChild_whenSiblingHasTheSameIdentifier_thenThrowsAndChangesNothing() async throws {
        let (parent, first) = try embedded("same", in: "parent")
        let second = controller("same")

        assertThrows(.duplicateIdentifier) { try parent.addChild(second) }

        XCTAssertTrue(parent.children.elementsEqual([first], by: ===))
        XCTAssertNil(second.parent)
        XCTAssertEqual(log.entries, [])
    }

    func testAddChild_whenReparentingOntoADuplicateIdentifier_thenLeavesTheOldParentAlone() async throws {
        let (oldParent, moving) = try embedded("same", in: "old")
        let newParent = controller("new")
        try newParent.addChild(controller("same"))
        log.removeAll()

        assertThrows(.duplicateIdentifier) { try newParent.addChild(moving) }

        XCTAssertTrue(moving.parent === oldParent)
        XCTAssertTrue(moving.view.superview === oldParent.view)
        XCTAssertEqual(newParent.children.count, 1)
        XCTAssertEqual(log.entries, [])
    }

    func testAddChild_whenIdentifierIsEmptyOrHasASlash_thenThrowsInvalidArgument() async {
        let parent = controller("parent")
        let empty = controller("")
        let slashed = controller("a/b")

        assertThrows(.invalidArgument) { try parent.addChild(empty) }
        assertThrows(.invalidArgument) { try parent.addChild(slashed) }

        XCTAssertTrue(parent.children.isEmpty)
        XCTAssertNil(empty.parent)
        XCTAssertNil(slashed.parent)
        XCTAssertEqual(log.entries, [])
    }

    func testContainmentError_whenSpecialisedWithAMessage_thenStillEqualsItsKind() async {
        let error = ContainmentError.cycle.with("x inside y")

        XCTAssertEqual(error, .cycle)
        XCTAssertNotEqual(error, .duplicateIdentifier)
        XCTAssertEqual(error.description, "x inside y")
    }

    // MARK: isMovingToParent / isMovingFromParent

    func testIsMovingToParent_whenOutsideAppearanceCallbacks_thenFalse() async throws {
        let (window, root, child) = makeRootAndChild()
        var outside: [String] = []

        try root.addChild(child)
        outside.append("afterWillMove to=\(child.isMovingToParent) from=\(child.isMovingFromParent)")
        root.view.addSubview(child.view)
        outside.append("afterAddSubview to=\(child.isMovingToParent) from=\(child.isMovingFromParent)")
        child.didMove(toParent: root)
        child.willMove(toParent: nil)
        outside.append("afterWillMoveNil to=\(child.isMovingToParent) from=\(child.isMovingFromParent)")
        child.view.removeFromSuperview()
        child.removeFromParent()
        outside.append("afterDidMoveNil to=\(child.isMovingToParent) from=\(child.isMovingFromParent)")

        XCTAssertEqual(
            outside,
            [
                "afterWillMove to=false from=false",
                "afterAddSubview to=false from=false",
                "afterWillMoveNil to=false from=false",
                "afterDidMoveNil to=false from=false",
            ])
        // The suffixes in the log pin the flags inside every callback, including
        // viewDidLoad, willMove and didMove, where they must be false.
        XCTAssertEqual(log.entries, log.embedding("child", in: "root", loadingView: true) + log.unembedding("child"))
        withExtendedLifetime(window) {}
    }

    func testIsMovingToParent_whenAppearingAfterDidMove_thenFalseInsideCallbacks() async throws {
        let (root, _) = try embedded("child", in: "root")
        let window = hiddenWindow(root: root)

        window.makeVisible()
        window.rootController = nil

        XCTAssertEqual(log.entries, log.appearing("root", "child") + log.disappearing("root", "child"))
    }
}
