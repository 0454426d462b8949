import AppStateCore
import StateContainers
import XCTest

/// `setNeedsSnapshotUpdate()`: a snapshot describes again only the controllers marked since the
/// last one and their ancestors, every property a snapshot reports marks by itself, and a
/// subclass that does not say it marks its changes is described every time.
final class SnapshotMarkingTests: ModelTestCase {
    /// A page that counts how often it is described, and says it marks its changes.
    private final class CountingPage: Controller {
        override class var marksSnapshotUpdates: Bool { true }
        private(set) var descriptions = 0

        override func describe(in node: inout NodeSnapshot) {
            super.describe(in: &node)
            descriptions += 1
        }
    }

    /// A subclass that reports a level of its own and never marks it: its class does not say
    /// it marks its changes.
    private class Gauge: Controller {
        var level = 0

        override func describe(in node: inout NodeSnapshot) {
            super.describe(in: &node)
            node.title = "level \(level)"
        }
    }

    /// A subclass that marks its changes and says so for its exact class.
    private class MarkingGauge: Controller {
        override class var marksSnapshotUpdates: Bool { self == MarkingGauge.self }
        var level = 0 {
            didSet { setNeedsSnapshotUpdate() }
        }

        override func describe(in node: inout NodeSnapshot) {
            super.describe(in: &node)
            node.title = "level \(level)"
        }
    }

    /// A subclass of a marking class that reports more without marking it.
    private final class LabelledGauge: MarkingGauge {
        var label = ""

        override func describe(in node: inout NodeSnapshot) {
            super.describe(in: &node)
            node.title = "\(label) \(level)"
        }
    }

    func testSnapshotReusing_afterEachChangeOfEveryContainer_thenEqualsOneDescribedAfresh() async throws {
        let session = try showEveryContainer()
        let window = try XCTUnwrap(session.window)
        let pages = { try XCTUnwrap(session.descendant(at: "home/pages") as? PaginatedController) }
        let feed = { try XCTUnwrap(session.descendant(at: "home/pages/feed") as? ContentStateController) }
        let menu = { try XCTUnwrap(session.descendant(at: "home") as? MenuController) }
        let inbox = { try XCTUnwrap(session.descendant(at: "home/inbox") as? NavigationController) }
        let fields = { try XCTUnwrap(session.descendant(at: "home/pages/compose/fields") as? StackController) }
        let keyboard = Rect(x: 0, y: 500, width: 1280, height: 300)
        let changes: [(String, () throws -> Void)] = [
            ("feed failed", { try feed().transition(to: .failed("offline")) }),
            ("feed failed otherwise", { try feed().transition(to: .failed("timed out")) }),
            ("feed renders", { try feed().transition(to: .render(Controller(identifier: "story"))) }),
            ("page 2", { try pages().setPage(2, animated: false) }),
            ("keyboard shown", { window.bus.post(KeyboardWillShow(frameBegin: .zero, frameEnd: keyboard, duration: 0, curve: .easeInOut)) }),
            ("spacing", { try fields().spacing = 24 }),
            ("keyboard hidden", { window.bus.post(KeyboardWillHide(frameBegin: keyboard, frameEnd: .zero, duration: 0, curve: .easeInOut)) }),
            ("title of a page", { session.descendant(at: "home/pages/one")?.title = "First" }),
            ("url of a page", { session.descendant(at: "home/pages/one")?.url = "https://kiosk.example/one" }),
            ("menu shown", { try menu().showMenu() }),
            ("inbox", { try menu().select(identifier: "inbox") }),
            ("push", { try inbox().push(identifier: "message", animated: false) }),
            ("title of the menu's item", { try inbox().title = "Mail" }),
            ("pop", { _ = try inbox().pop(animated: false) }),
            ("split", { try menu().select(identifier: "mail") }),
            ("narrow", { window.resize(to: Size(width: 600, height: 800)) }),
            ("wide", { window.resize(to: Size(width: 1280, height: 800)) }),
            ("present", { try session.present(identifier: "notice", animated: false) }),
            ("dismiss", { _ = session.dismiss(animated: false) }),
            ("lock", { _ = try session.lock() }),
            ("unlock", { _ = try session.unlock() }),
            ("switch user", { try session.logIn(user: "grace", switching: true) }),
            ("log out", { _ = session.logOut() }),
        ]
        var earlier = session.snapshot()
        for (name, change) in changes {
            try change()
            let reused = session.snapshot(reusing: earlier)
            XCTAssertEqual(reused, session.snapshotDescribedAfresh(), "after \(name)")
            XCTAssertFalse(reused.changes(since: earlier).isEmpty, "\(name) changed nothing a snapshot reports")
            earlier = reused
        }
    }

    func testSnapshotReusing_whenTheKeyboardMoves_thenOnlyTheKeyboardAwareBranchIsNew() async throws {
        let session = try showEveryContainer()
        try (session.descendant(at: "home/pages") as? PaginatedController)?.setPage(2, animated: false)
        let before = session.snapshot()
        let keyboard = Rect(x: 0, y: 500, width: 1280, height: 300)

        session.window?.bus.post(KeyboardWillShow(frameBegin: .zero, frameEnd: keyboard, duration: 0, curve: .easeInOut))
        let after = session.snapshot(reusing: before)

        for path in ["session/login", "session/home/inbox", "session/home/mail", "session/home/pages/one", "session/home/pages/feed"] {
            let node = try XCTUnwrap(after.node(at: path))
            XCTAssertTrue(node.isIdentical(to: try XCTUnwrap(before.node(at: path))), "\(path) was built again")
        }
        XCTAssertEqual(after.changes(since: before).changed.map(\.path), ["session/home/pages/compose"])
        XCTAssertEqual(after.node(at: "session/home/pages/compose")?.keyboardOverlap, 300)
    }

    func testSnapshot_whenAPageTurns_thenDescribesTheTwoPagesAloneOfItsPages() async throws {
        let pageControllers = (0..<50).map { CountingPage(identifier: "page-\($0)") }
        let pages = try PaginatedController(identifier: "pages", pages: pageControllers)
        show(pages)
        let before = pages.snapshot()
        let described = pageControllers.map(\.descriptions)

        try pages.setPage(1, animated: false)
        let after = pages.snapshot(reusing: before)

        XCTAssertEqual(zip(pageControllers, described).map { $0.descriptions - $1 }.reduce(0, +), 2)
        XCTAssertEqual(after, pages.snapshotDescribedAfresh())
        XCTAssertEqual(Set(after.changes(since: before).changed.map(\.path)), ["pages"])
    }

    func testSnapshot_whenASubclassThatDoesNotSayItMarksChanges_thenItsChangeReachesTheNextSnapshotAndItsChanges() async throws {
        let gauge = Gauge(identifier: "gauge")
        let root = try StackController(identifier: "root", arrangedChildren: [Controller(identifier: "other"), gauge])
        show(root)
        let before = root.snapshot()

        gauge.level = 7
        let after = root.snapshot(reusing: before)

        XCTAssertEqual(after.node(at: "root/gauge")?.title, "level 7")
        XCTAssertEqual(after.changes(since: before).changed.map(\.path), ["root/gauge"])
    }

    func testSnapshot_whenASubclassOfAMarkingClassReportsMoreWithoutMarking_thenItsChangeStillReachesTheSnapshot() async throws {
        let gauge = LabelledGauge(identifier: "gauge")
        let marking = MarkingGauge(identifier: "marking")
        let root = try StackController(identifier: "root", arrangedChildren: [marking, gauge])
        show(root)
        let before = root.snapshot()

        gauge.label = "fuel"
        marking.level = 3
        let after = root.snapshot(reusing: before)

        XCTAssertFalse(LabelledGauge.marksSnapshotUpdates)
        XCTAssertTrue(MarkingGauge.marksSnapshotUpdates)
        XCTAssertEqual(after.node(at: "root/gauge")?.title, "fuel 0")
        XCTAssertEqual(after.node(at: "root/marking")?.title, "level 3")
    }

    func testSnapshot_whenNothingWasMarked_thenAMarkingSubclassIsTheEarlierNode() async throws {
        let marking = MarkingGauge(identifier: "marking")
        let root = try StackController(identifier: "root", arrangedChildren: [marking, Gauge(identifier: "gauge")])
        show(root)
        let before = root.snapshot()

        let after = root.snapshot(reusing: before)

        XCTAssertTrue(try XCTUnwrap(after.node(at: "root/marking")).isIdentical(to: try XCTUnwrap(before.node(at: "root/marking"))))
        XCTAssertTrue(after.changes(since: before).isEmpty)
    }

    func testSnapshot_whenASubtreeMovesToAnotherParent_thenItsNodesHaveTheirNewPaths() async throws {
        let moving = try StackController(identifier: "moving", arrangedChildren: [Controller(identifier: "leaf")])
        let left = try StackController(identifier: "left", arrangedChildren: [moving])
        let right = try StackController(identifier: "right", arrangedChildren: [Controller(identifier: "other")])
        let root = try StackController(identifier: "root", arrangedChildren: [left, right])
        show(root)
        let before = root.snapshot()

        moving.willMove(toParent: nil)
        moving.view.removeFromSuperview()
        moving.removeFromParent()
        try right.embed(moving)
        let after = root.snapshot(reusing: before)

        XCTAssertEqual(after.node(at: "root/right/moving/leaf")?.path, "root/right/moving/leaf")
        XCTAssertNil(after.node(at: "root/left/moving"))
        XCTAssertEqual(after, root.snapshotDescribedAfresh())
    }

    func testSnapshot_whenASubtreeWasSnapshottedAlone_thenTheTreesNextSnapshotStillHasItsChange() async throws {
        let session = try showEveryContainer()
        let before = session.snapshot()
        let pages = try XCTUnwrap(session.descendant(at: "home/pages") as? PaginatedController)

        try pages.setPage(1, animated: false)
        _ = pages.snapshot()
        let after = session.snapshot(reusing: before)

        XCTAssertEqual(after.node(at: "session/home/pages")?.pageIndex, 1)
        XCTAssertEqual(after, session.snapshotDescribedAfresh())
    }
}
