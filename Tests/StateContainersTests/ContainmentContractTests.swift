import AppStateCore
import StateContainers
import XCTest

/// The four calls of the containment contract and its misuse rules, apart from appearance
/// ordering and transitions: exact callback logs, compared whole. The contract is
/// `Sources/StateContainers/StateContainers.docc/ContainmentContract.md`.
final class ContainmentContractTests: ModelTestCase {
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
        let oldParent = controller("old")
        let newParent = controller("new")
        let child = controller("child")
        try oldParent.embed(child)
        log.removeAll()

        try newParent.addChild(child)

        XCTAssertEqual(log.entries, [
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
        let root = controller("root")
        let oldParent = controller("old")
        let newParent = controller("new")
        let child = controller("child")
        try root.embed(oldParent)
        try root.embed(newParent)
        try oldParent.embed(child)
        let window = visibleWindow(root: root)

        try newParent.addChild(child)
        newParent.view.addSubview(child.view)
        child.didMove(toParent: newParent)

        XCTAssertEqual(log.entries, [
            "child.willMove(nil)",
            "child.viewWillDisappear(false) movingFrom=true",
            "child.viewDidDisappear(false) movingFrom=true",
            "child.didMove(nil)",
            "child.willMove(new)",
            "child.viewWillAppear(false) movingTo=true",
            "child.viewDidAppear(false) movingTo=true",
            "child.didMove(new)",
        ])
        XCTAssertEqual(child.appearance, .appeared)
        withExtendedLifetime(window) {}
    }

    func testAddChild_whenAlreadyAChildOfTheReceiver_thenDoesNothing() async throws {
        let parent = controller("parent")
        let child = controller("child")
        try parent.embed(child)
        log.removeAll()

        try parent.addChild(child)

        XCTAssertEqual(log.entries, [])
        XCTAssertTrue(parent.children.elementsEqual([child], by: ===))
        XCTAssertTrue(child.view.superview === parent.view)
    }

    func testAddChild_whenChildIsAWindowsRoot_thenItLeavesThatWindowFirst() async throws {
        let root = controller("root")
        let grandchild = controller("grandchild")
        try root.embed(grandchild)
        let window = visibleWindow(root: root)
        let parent = controller("parent")

        try parent.addChild(root)

        XCTAssertEqual(log.entries, [
            "root.viewWillDisappear(false)",
            "grandchild.viewWillDisappear(false)",
            "root.viewDidDisappear(false)",
            "grandchild.viewDidDisappear(false)",
            "root.willMove(parent)",
        ])
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

        XCTAssertEqual(log.entries, [
            "child.willMove(parent)",
            "parent.viewDidLoad",
            "child.viewDidLoad",
            "child.didMove(parent)",
        ])
    }

    // MARK: addSubview

    func testAddSubview_whenContainerIsInAVisibleWindow_thenChildAppearsBeforeAddSubviewReturns() async throws {
        let root = controller("root")
        let child = controller("child")
        child.loadViewIfNeeded()
        let window = visibleWindow(root: root)

        try root.addChild(child)
        log.append("addChild returned")
        root.view.addSubview(child.view)
        log.append("addSubview returned")
        child.didMove(toParent: root)

        XCTAssertEqual(log.entries, [
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
        let root = controller("root")
        let child = controller("child")
        let window = visibleWindow(root: root)
        let content = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        root.view.addSubview(content)

        try root.embed(child, in: content)

        XCTAssertEqual(log.entries, [
            "child.willMove(root)",
            "child.viewDidLoad",
            "child.viewWillAppear(false) movingTo=true",
            "child.viewDidAppear(false) movingTo=true",
            "child.didMove(root)",
        ])
        withExtendedLifetime(window) {}
    }

    func testAddSubview_whenChildAlreadyFinishedMoving_thenAppearsWithoutMovingToParent() async throws {
        let root = controller("root")
        let child = controller("child")
        child.loadViewIfNeeded()
        let window = visibleWindow(root: root)
        try root.addChild(child)
        child.didMove(toParent: root)
        log.removeAll()

        root.view.addSubview(child.view)

        XCTAssertEqual(log.entries, ["child.viewWillAppear(false)", "child.viewDidAppear(false)"])
        withExtendedLifetime(window) {}
    }

    func testAddSubview_whenWindowIsNotVisible_thenSendsNothing() async throws {
        let root = controller("root")
        let child = controller("child")
        child.loadViewIfNeeded()
        let window = Window(size: Size(width: 400, height: 300))
        window.rootController = root
        log.removeAll()

        try root.embed(child)

        XCTAssertEqual(log.entries, ["child.willMove(root)", "child.didMove(root)"])
        XCTAssertEqual(child.appearance, .disappeared)
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
        let parent = controller("parent")
        let child = controller("child")
        try parent.embed(child)
        child.hook = { child, name in
            guard name == "didMove" else { return }
            child.log.append("inChildren=\(parent.children.contains { $0 === child }) parent=\(child.parent?.identifier ?? "nil")")
        }
        log.removeAll()

        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()

        XCTAssertEqual(log.entries, [
            "child.willMove(nil)",
            "child.didMove(nil)",
            "inChildren=false parent=nil",
        ])
        XCTAssertTrue(parent.children.isEmpty)
        XCTAssertNil(child.parent)
    }

    func testRemoveFromParent_whenCalledAlone_thenSendsOnlyDidMoveAndLeavesTheView() async throws {
        let parent = controller("parent")
        let child = controller("child")
        try parent.embed(child)
        log.removeAll()

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
        let a = controller("a"), b = controller("b"), c = controller("c")
        try parent.addChild(a)
        try parent.addChild(b)
        try parent.addChild(c)

        b.removeFromParent()

        XCTAssertEqual(parent.children.map(\.identifier), ["a", "c"])
    }

    // MARK: removeFromSuperview

    func testRemoveFromSuperview_whenOnScreen_thenDisappearsBeforeReturning() async throws {
        let root = controller("root")
        let child = controller("child")
        try root.embed(child)
        let window = visibleWindow(root: root)

        child.view.removeFromSuperview()
        log.append("removeFromSuperview returned")

        XCTAssertEqual(log.entries, [
            "child.viewWillDisappear(false)",
            "child.viewDidDisappear(false)",
            "removeFromSuperview returned",
        ])
        XCTAssertEqual(child.appearance, .disappeared)
        XCTAssertTrue(child.parent === root, "removing the view does not remove the controller")
        withExtendedLifetime(window) {}
    }

    func testRemoveFromSuperview_whenOffScreen_thenSendsNothing() async throws {
        let root = controller("root")
        let child = controller("child")
        try root.embed(child)
        let window = Window(size: Size(width: 10, height: 10))
        window.rootController = root
        log.removeAll()

        child.view.removeFromSuperview()

        XCTAssertEqual(log.entries, [])
    }

    func testUnembed_whenOnScreen_thenRunsTheFullRemovalProtocol() async throws {
        let root = controller("root")
        let child = controller("child")
        try root.embed(child)
        let window = visibleWindow(root: root)

        child.unembed()

        XCTAssertEqual(log.entries, [
            "child.willMove(nil)",
            "child.viewWillDisappear(false) movingFrom=true",
            "child.viewDidDisappear(false) movingFrom=true",
            "child.didMove(nil)",
        ])
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
        let root = controller("root")
        let child = controller("child")
        let window = visibleWindow(root: root)

        try root.embed(child)

        XCTAssertEqual(log.entries, [
            "child.willMove(root)",
            "child.viewDidLoad",
            "child.viewWillAppear(false) movingTo=true",
            "child.viewDidAppear(false) movingTo=true",
            "child.didMove(root)",
        ])
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
        let grandparent = controller("grandparent")
        let parent = controller("parent")
        let child = controller("child")
        try grandparent.embed(parent)
        try parent.embed(child)
        log.removeAll()

        assertThrows(.cycle) { try child.addChild(grandparent) }
        assertThrows(.cycle) { try child.addChild(parent) }

        XCTAssertTrue(child.children.isEmpty)
        XCTAssertNil(grandparent.parent)
        XCTAssertTrue(parent.parent === grandparent)
        XCTAssertTrue(child.parent === parent)
        XCTAssertEqual(log.entries, [])
    }

    func testAddChild_whenSiblingHasTheSameIdentifier_thenThrowsAndChangesNothing() async throws {
        let parent = controller("parent")
        let first = controller("same")
        let second = controller("same")
        try parent.embed(first)
        log.removeAll()

        assertThrows(.duplicateIdentifier) { try parent.addChild(second) }

        XCTAssertTrue(parent.children.elementsEqual([first], by: ===))
        XCTAssertNil(second.parent)
        XCTAssertEqual(log.entries, [])
    }

    func testAddChild_whenReparentingOntoADuplicateIdentifier_thenLeavesTheOldParentAlone() async throws {
        let oldParent = controller("old")
        let newParent = controller("new")
        let moving = controller("same")
        try oldParent.embed(moving)
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
        let root = controller("root")
        let child = controller("child")
        let window = visibleWindow(root: root)
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

        XCTAssertEqual(outside, [
            "afterWillMove to=false from=false",
            "afterAddSubview to=false from=false",
            "afterWillMoveNil to=false from=false",
            "afterDidMoveNil to=false from=false",
        ])
        // The suffixes in the log pin the flags inside every callback, including
        // viewDidLoad, willMove and didMove, where they must be false.
        XCTAssertEqual(log.entries, [
            "child.willMove(root)",
            "child.viewDidLoad",
            "child.viewWillAppear(false) movingTo=true",
            "child.viewDidAppear(false) movingTo=true",
            "child.didMove(root)",
            "child.willMove(nil)",
            "child.viewWillDisappear(false) movingFrom=true",
            "child.viewDidDisappear(false) movingFrom=true",
            "child.didMove(nil)",
        ])
        withExtendedLifetime(window) {}
    }

    func testIsMovingToParent_whenAppearingAfterDidMove_thenFalseInsideCallbacks() async throws {
        let root = controller("root")
        let child = controller("child")
        try root.embed(child)
        let window = Window(size: Size(width: 10, height: 10))
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
            "child.viewWillDisappear(false)",
            "root.viewDidDisappear(false)",
            "child.viewDidDisappear(false)",
        ])
    }

    func testIsMovingToParent_whenParentMovesIn_thenChildrenAreNotMoving() async throws {
        let root = controller("root")
        let parent = controller("parent")
        let child = controller("child")
        try parent.embed(child)
        let window = visibleWindow(root: root)

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
}
