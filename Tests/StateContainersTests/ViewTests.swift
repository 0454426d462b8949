import AppStateCore
import StateContainers
import XCTest

/// View loading and the view hierarchy.
final class ViewTests: ModelTestCase {
    // MARK: loading

    func testView_whenFirstAccessed_thenLoadsAndCallsViewDidLoadOnce() async {
        let c = controller("c")
        XCTAssertFalse(c.isViewLoaded)

        let first = c.view
        let second = c.view
        c.loadViewIfNeeded()

        XCTAssertTrue(first === second)
        XCTAssertTrue(c.isViewLoaded)
        XCTAssertEqual(log.entries, ["c.viewDidLoad"])
    }

    func testLoadViewIfNeeded_whenNotLoaded_thenLoadsOnce() async {
        let c = controller("c")

        c.loadViewIfNeeded()
        c.loadViewIfNeeded()

        XCTAssertTrue(c.isViewLoaded)
        XCTAssertEqual(log.entries, ["c.viewDidLoad"])
    }

    func testViewDidLoad_whenItAccessesTheView_thenGetsTheSameViewWithoutRecursing() async {
        let c = controller("c")
        var seen: View?
        c.hook = { c, name in if name == "viewDidLoad" { seen = c.view } }

        let view = c.view

        XCTAssertTrue(seen === view)
        XCTAssertEqual(log.entries, ["c.viewDidLoad"])
    }

    func testAddChildAndRemoveFromParent_thenNeverLoadViews() async throws {
        let child = controller("child")
        let parents = [controller("parent"), controller("other")]

        for parent in parents { try parent.addChild(child) }
        child.removeFromParent()

        for controller in parents + [child] { XCTAssertFalse(controller.isViewLoaded, controller.identifier) }
        XCTAssertFalse(log.entries.contains { $0.hasSuffix("viewDidLoad") }, "\(log.entries)")
    }

    func testBeginAppearanceTransition_whenViewIsNotLoaded_thenDoesNotLoadIt() async {
        let c = controller("c")

        c.beginAppearanceTransition(true, animated: false)
        c.endAppearanceTransition()

        XCTAssertFalse(c.isViewLoaded)
    }

    // MARK: hierarchy

    func testAddSubview_whenViewIsAnAncestor_thenWarnsAndChangesNothing() async {
        let root = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let middle = View()
        let leaf = View()
        root.addSubview(middle)
        middle.addSubview(leaf)

        leaf.addSubview(root)
        leaf.addSubview(middle)
        middle.addSubview(middle)

        XCTAssertEqual(warnings.count, 3)
        XCTAssertTrue(root.subviews.elementsEqual([middle], by: ===))
        XCTAssertTrue(middle.subviews.elementsEqual([leaf], by: ===))
        XCTAssertTrue(leaf.subviews.isEmpty)
        XCTAssertNil(root.superview)
        XCTAssertTrue(middle.superview === root)
        XCTAssertTrue(leaf.superview === middle)
    }

    func testAddSubview_whenControllersViewIsAddedToItsChildsView_thenWarnsWithTheOwnerAndSendsNothing() async throws {
        let (root, child) = try embedded("child", in: "root")
        let window = visibleWindow(root: root)

        child.view.addSubview(root.view)

        XCTAssertEqual(warnings.map(\.identifier), ["child"])
        XCTAssertEqual(log.entries, [])
        XCTAssertTrue(root.view.window === window)
        XCTAssertTrue(child.view.superview === root.view)
    }

    func testAddSubview_whenViewHasAnotherSuperview_thenMovesIt() async {
        let a = View()
        let b = View()
        let v = View()
        a.addSubview(v)

        b.addSubview(v)

        XCTAssertTrue(a.subviews.isEmpty)
        XCTAssertTrue(b.subviews.elementsEqual([v], by: ===))
        XCTAssertTrue(v.superview === b)
    }

    func testInsertSubview_thenPlacesAtIndexClampedAndBelowSibling() async {
        let parent = View()
        let a = View()
        let b = View()
        let c = View()
        let d = View()
        let e = View()
        parent.addSubview(a)
        parent.addSubview(b)

        parent.insertSubview(c, at: 0)
        parent.insertSubview(d, at: 99)
        parent.insertSubview(e, belowSubview: b)

        XCTAssertTrue(parent.subviews.elementsEqual([c, a, e, b, d], by: ===))
    }

    func testInsertSubview_whenAlreadyASubview_thenOnlyReordersWithoutCallbacks() async throws {
        let (root, a) = try embedded("a", in: "root")
        let b = controller("b")
        try root.embed(b)
        let window = visibleWindow(root: root)

        root.view.addSubview(a.view)
        root.view.insertSubview(b.view, at: 0)

        XCTAssertTrue(root.view.subviews.elementsEqual([b.view, a.view], by: ===))
        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(a.appearance, .appeared)
        withExtendedLifetime(window) {}
    }

    func testRemoveFromSuperview_whenNoSuperview_thenDoesNothing() async {
        let v = View()
        v.removeFromSuperview()
        XCTAssertNil(v.superview)
        XCTAssertEqual(warnings, [])
    }

    func testWindowAndIsOnScreen_followTheHierarchyAndVisibility() async {
        let root = controller("root")
        let window = Window(size: Size(width: 10, height: 10))
        let detached = View()
        let nested = View()
        detached.addSubview(nested)
        XCTAssertNil(nested.window)

        window.rootController = root
        root.view.addSubview(detached)
        XCTAssertTrue(nested.window === window)
        XCTAssertFalse(nested.isOnScreen)

        window.makeVisible()
        XCTAssertTrue(nested.isOnScreen)

        detached.removeFromSuperview()
        XCTAssertNil(nested.window)
        XCTAssertFalse(nested.isOnScreen)
    }

    func testIsDescendant_thenTrueForItselfAndAncestorsOnly() async {
        let a = View()
        let b = View()
        let c = View()
        let other = View()
        a.addSubview(b)
        b.addSubview(c)

        XCTAssertTrue(c.isDescendant(of: c))
        XCTAssertTrue(c.isDescendant(of: a))
        XCTAssertFalse(a.isDescendant(of: c))
        XCTAssertFalse(c.isDescendant(of: other))
    }

    func testFrame_whenSizeChanges_thenBoundsFollowsKeepingTheScrollPositionAndLaysOut() async {
        var layouts = 0
        final class Counter: Controller {
            var onLayout: () -> Void = {}
            override func viewWillLayoutSubviews() { onLayout() }
        }
        let counter = Counter(identifier: "counter")
        counter.onLayout = { layouts += 1 }
        let view = counter.view
        view.contentOffset = Point(x: 0, y: 40)

        view.frame = Rect(x: 5, y: 5, width: 100, height: 50)
        XCTAssertEqual(view.bounds, Rect(x: 0, y: 40, width: 100, height: 50))
        XCTAssertEqual(layouts, 1)

        view.frame = Rect(x: 7, y: 9, width: 100, height: 50)
        XCTAssertEqual(layouts, 1, "moving without resizing does not lay out")
        XCTAssertEqual(view.bounds, Rect(x: 0, y: 40, width: 100, height: 50))
    }

    func testContentOffset_isTheBoundsOrigin() async {
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))

        view.contentOffset = Point(x: 3, y: 4)

        XCTAssertEqual(view.bounds.origin, Point(x: 3, y: 4))
        XCTAssertEqual(view.bounds.size, Size(width: 10, height: 10))
        view.bounds.origin = Point(x: 1, y: 2)
        XCTAssertEqual(view.contentOffset, Point(x: 1, y: 2))
    }
}
