import AppStateCore
import StateContainers
import XCTest

/// Window sizes, the root controller, the bus and teardown.
final class WindowTests: ModelTestCase {
    /// root → child → grandchild, each view filling its parent's, in a 400×300 window.
    private func makeFillingTree() throws -> (window: Window, root: LoggingController, child: LoggingController, grandchild: LoggingController) {
        let root = controller("root")
        let child = controller("child")
        let grandchild = controller("grandchild")
        for parent in [root, child] { parent.layoutChildrenToFill = true }
        try root.embed(child)
        try child.embed(grandchild)
        let window = visibleWindow(root: root)
        root.view.layoutSubviews()
        child.view.layoutSubviews()
        return (window, root, child, grandchild)
    }

    // MARK: resize

    func testResize_thenViewWillTransitionFlowsDownBeforeLayout() async throws {
        let tree = try makeFillingTree()
        XCTAssertEqual(tree.grandchild.view.bounds.size, Size(width: 400, height: 300))
        tree.grandchild.hook = { grandchild, name in
            guard name == "viewWillTransition" else { return }
            grandchild.log.append("still \(grandchild.view.bounds.size.logText)")
        }

        tree.window.resize(to: Size(width: 800, height: 600))

        XCTAssertEqual(
            log.entries,
            [
                "root.viewWillTransition(800x600)",
                "child.viewWillTransition(800x600)",
                "grandchild.viewWillTransition(800x600)",
                "still 400x300",
            ])
        XCTAssertEqual(tree.window.size, Size(width: 800, height: 600))
        XCTAssertEqual(tree.root.view.frame, Rect(x: 0, y: 0, width: 800, height: 600))
        XCTAssertEqual(tree.grandchild.view.frame, Rect(x: 0, y: 0, width: 800, height: 600))
    }

    func testResize_whenAContainerGivesItsChildAFixedSize_thenThatChildIsNotTold() async throws {
        let root = controller("root")
        let child = controller("child")
        let grandchild = controller("grandchild")
        root.fixedChildSize = Size(width: 100, height: 50)
        child.layoutChildrenToFill = true
        try root.embed(child)
        try child.embed(grandchild)
        child.view.frame = Rect(x: 0, y: 0, width: 100, height: 50)
        let window = visibleWindow(root: root)

        window.resize(to: Size(width: 800, height: 600))

        XCTAssertEqual(log.entries, ["root.viewWillTransition(800x600)"])
    }

    func testResize_whenAChildsSizeChangesToTheFixedSize_thenItIsToldThatSize() async throws {
        let root = controller("root")
        let child = controller("child")
        root.fixedChildSize = Size(width: 100, height: 50)
        try root.embed(child)
        child.view.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        let window = visibleWindow(root: root)

        window.resize(to: Size(width: 800, height: 600))

        XCTAssertEqual(log.entries, ["root.viewWillTransition(800x600)", "child.viewWillTransition(100x50)"])
    }

    func testResize_whenChildIsNotInstalled_thenItIsNotTold() async throws {
        let tree = try makeFillingTree()
        let loose = controller("loose")
        try tree.root.addChild(loose)
        loose.loadViewIfNeeded()
        loose.didMove(toParent: tree.root)
        log.removeAll()

        tree.window.resize(to: Size(width: 10, height: 10))

        XCTAssertFalse(log.entries.contains { $0.hasPrefix("loose.") }, "\(log.entries)")
    }

    func testResize_whenSizeIsUnchanged_thenNothingIsSent() async throws {
        let tree = try makeFillingTree()

        tree.window.resize(to: Size(width: 400, height: 300))

        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(warnings, [])
    }

    func testResize_whenSizeIsNegativeOrNotFinite_thenIgnoredWithAWarning() async throws {
        let tree = try makeFillingTree()

        tree.window.resize(to: Size(width: -1, height: 300))
        tree.window.resize(to: Size(width: 400, height: -0.5))
        tree.window.resize(to: Size(width: .nan, height: 300))
        tree.window.resize(to: Size(width: 400, height: .infinity))

        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(warnings.count, 4)
        XCTAssertEqual(tree.window.size, Size(width: 400, height: 300))
        XCTAssertEqual(tree.root.view.frame, Rect(x: 0, y: 0, width: 400, height: 300))
    }

    func testResize_whenNoRoot_thenOnlyTheSizeChanges() async {
        let window = Window(size: Size(width: 1, height: 1))

        window.resize(to: Size(width: 2, height: 3))

        XCTAssertEqual(window.size, Size(width: 2, height: 3))
        XCTAssertEqual(window.bounds, Rect(x: 0, y: 0, width: 2, height: 3))
    }

    // MARK: rootController

    func testRootController_whenSet_thenItsViewFillsTheWindow() async {
        let root = controller("root")
        let window = Window(size: Size(width: 640, height: 480))

        window.rootController = root

        XCTAssertEqual(root.view.frame, Rect(x: 0, y: 0, width: 640, height: 480))
        XCTAssertTrue(root.view.window === window)
        XCTAssertTrue(root.window === window)
        XCTAssertNil(root.view.superview)
    }

    func testRootController_whenItHasAParent_thenItIsRemovedFromItFirst() async throws {
        let oldParent = controller("oldParent")
        let root = controller("root")
        try oldParent.embed(root)
        let window = visibleWindow(root: controller("first"))

        window.rootController = root

        XCTAssertEqual(
            log.entries,
            [
                "first.viewWillDisappear(false)",
                "first.viewDidDisappear(false)",
                "root.willMove(nil)",
                "root.didMove(nil)",
                "root.viewWillAppear(false)",
                "root.viewDidAppear(false)",
            ])
        XCTAssertNil(root.parent)
        XCTAssertTrue(oldParent.children.isEmpty)
        XCTAssertTrue(root.view.window === window)
    }

    func testRootController_whenItIsAnotherWindowsRoot_thenItLeavesThatWindow() async {
        let root = controller("root")
        let first = visibleWindow(root: root)
        let second = Window(size: Size(width: 10, height: 10))

        second.rootController = root

        XCTAssertNil(first.rootController)
        XCTAssertTrue(root.view.window === second)
        XCTAssertTrue(root.window === second)
        XCTAssertEqual(log.entries, ["root.viewWillDisappear(false)", "root.viewDidDisappear(false)"])
    }

    func testWindow_whenAControllerJoinsOrLeavesTheTree_thenItsWindowFollows() async throws {
        let root = controller("root")
        let child = controller("child")
        let window = Window(size: Size(width: 10, height: 10))
        window.rootController = root
        XCTAssertNil(child.window)

        try root.addChild(child)
        XCTAssertTrue(child.window === window, "a child is in its parent's window even before its view is installed")

        child.removeFromParent()
        XCTAssertNil(child.window)
    }

    func testDidMoveToWindow_whenASubtreeJoinsAndLeaves_thenEachControllerIsToldOnce() async throws {
        final class WindowWatcher: Controller {
            var record: (String) -> Void = { _ in }
            override func didMoveToWindow() { record("\(identifier) window=\(window != nil)") }
        }
        var events: [String] = []
        let root = WindowWatcher(identifier: "root")
        let parent = WindowWatcher(identifier: "parent")
        let child = WindowWatcher(identifier: "child")
        for c in [root, parent, child] { c.record = { events.append($0) } }
        try parent.embed(child)
        let window = Window(size: Size(width: 10, height: 10))
        window.rootController = root

        try root.embed(parent)
        parent.unembed()
        window.rootController = nil

        XCTAssertEqual(
            events,
            [
                "root window=true",
                "parent window=true",
                "child window=true",
                "parent window=false",
                "child window=false",
                "root window=false",
            ])
    }

    func testDidMoveToWindow_whenTheRootEmbedsChildrenInViewDidLoad_thenEachIsToldOnce() async throws {
        final class WindowWatcher: Controller {
            var record: (String) -> Void = { _ in }
            var embedOnLoad: Controller?
            override func viewDidLoad() {
                super.viewDidLoad()
                if let embedOnLoad { expectNoThrow { try embed(embedOnLoad) } }
            }
            override func didMoveToWindow() { record("\(identifier) window=\(window != nil)") }
        }
        var events: [String] = []
        let root = WindowWatcher(identifier: "root")
        let child = WindowWatcher(identifier: "child")
        root.embedOnLoad = child
        for c in [root, child] { c.record = { events.append($0) } }
        let window = Window(size: Size(width: 10, height: 10))

        window.rootController = root

        XCTAssertEqual(events, ["root window=true", "child window=true"])
        XCTAssertTrue(child.view.superview === root.view)
    }

    // MARK: bus

    func testBus_whenInAWindow_thenTheWindowsBus() async throws {
        let bus = NotificationBus()
        let window = Window(size: Size(width: 1, height: 1), bus: bus)
        let root = Controller(identifier: "root")
        let child = Controller(identifier: "child")
        window.rootController = root
        try root.addChild(child)

        XCTAssertTrue(window.bus === bus)
        XCTAssertTrue(root.bus === bus)
        XCTAssertTrue(child.bus === bus)
    }

    func testBus_whenInNoWindow_thenAPrivateBusThatStaysTheSame() async {
        let a = Controller(identifier: "a")
        let b = Controller(identifier: "b")

        XCTAssertTrue(a.bus === a.bus)
        XCTAssertFalse(a.bus === b.bus)
    }

    // MARK: teardown

    func testTeardown_whenTreeIsRemovedFromItsWindowAndReleased_thenEverythingDeallocates() async throws {
        weak var weakRoot: Controller?
        weak var weakChild: Controller?
        weak var weakGrandchild: Controller?
        weak var weakRootView: View?
        weak var weakChildView: View?
        let window = Window(size: Size(width: 100, height: 100))
        do {
            let root = controller("root")
            let child = controller("child")
            let grandchild = controller("grandchild")
            try root.embed(child)
            try child.embed(grandchild)
            window.rootController = root
            window.makeVisible()
            weakRoot = root
            weakChild = child
            weakGrandchild = grandchild
            weakRootView = root.view
            weakChildView = child.view
            _ = root.bus
            _ = child.bus
        }
        XCTAssertNotNil(weakGrandchild, "the window keeps its tree alive")

        window.rootController = nil

        XCTAssertNil(weakRoot)
        XCTAssertNil(weakChild)
        XCTAssertNil(weakGrandchild)
        XCTAssertNil(weakRootView)
        XCTAssertNil(weakChildView)
    }

    func testTeardown_whenWindowIsReleasedWithItsTree_thenEverythingDeallocates() async throws {
        weak var weakWindow: Window?
        weak var weakRoot: Controller?
        weak var weakChild: Controller?
        do {
            let root = controller("root")
            let child = controller("child")
            try root.embed(child)
            let window = visibleWindow(root: root)
            weakWindow = window
            weakRoot = root
            weakChild = child
        }

        XCTAssertNil(weakWindow)
        XCTAssertNil(weakRoot)
        XCTAssertNil(weakChild)
    }

    func testTeardown_whenAChildIsUnembeddedAndReleased_thenItDeallocatesWhileTheParentLives() async throws {
        let root = controller("root")
        let window = visibleWindow(root: root)
        weak var weakChild: Controller?
        weak var weakChildView: View?
        do {
            let child = controller("child")
            try root.embed(child)
            weakChild = child
            weakChildView = child.view
            _ = child.bus
            child.unembed()
        }

        XCTAssertNil(weakChild)
        XCTAssertNil(weakChildView)
        XCTAssertTrue(root.children.isEmpty)
        withExtendedLifetime(window) {}
    }
}
