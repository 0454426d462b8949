import AppStateCore
import StateContainers
import XCTest

/// `encodeRestorableTree()` after `setNeedsSnapshotUpdate()`: it encodes again only the
/// controllers marked since the last encoding and their ancestors, and a subclass that does not
/// say it marks its changes is encoded every time.
final class RestorationMarkingTests: ModelTestCase {
    /// A page that counts how often it is encoded, and says it marks its changes.
    private final class CountingPage: Controller {
        override class var marksSnapshotUpdates: Bool { true }
        private(set) var encodings = 0

        override func encodeRestorableState(with coder: RestorationCoder) {
            super.encodeRestorableState(with: coder)
            encodings += 1
        }
    }

    /// A subclass that saves a value of its own and never marks it.
    private final class Odometer: Controller {
        var distance = 0

        override func encodeRestorableState(with coder: RestorationCoder) {
            super.encodeRestorableState(with: coder)
            coder.encode(distance, forKey: "distance")
        }
    }

    /// A subclass that saves a value of its own and marks its changes.
    private final class MarkingOdometer: Controller {
        override class var marksSnapshotUpdates: Bool { true }
        var distance = 0 {
            didSet { setNeedsSnapshotUpdate() }
        }

        override func encodeRestorableState(with coder: RestorationCoder) {
            super.encodeRestorableState(with: coder)
            coder.encode(distance, forKey: "distance")
        }
    }

    func testEncodeRestorableTree_afterEachChangeOfEveryContainer_thenEqualsOneEncodedAfresh() async throws {
        let session = try showEveryContainer()
        let pages = { try XCTUnwrap(session.descendant(at: "home/pages") as? PaginatedController) }
        let menu = { try XCTUnwrap(session.descendant(at: "home") as? MenuController) }
        let inbox = { try XCTUnwrap(session.descendant(at: "home/inbox") as? NavigationController) }
        let changes: [(String, () throws -> Void)] = [
            ("page 2", { try pages().setPage(2, animated: false) }),
            ("inbox", { try menu().select(identifier: "inbox") }),
            ("push", { try inbox().push(identifier: "message", animated: false) }),
            ("pop", { _ = try inbox().pop(animated: false) }),
            ("present", { try session.present(identifier: "notice", animated: false) }),
            ("dismiss", { _ = session.dismiss(animated: false) }),
            ("lock", { _ = try session.lock() }),
            ("unlock", { _ = try session.unlock() }),
            ("restoration identifier", { session.descendant(at: "home/pages")?.restorationIdentifier = "book" }),
            ("log out", { _ = session.logOut() }),
        ]
        var earlier = session.encodeRestorableTree()
        for (name, change) in changes {
            try change()
            let saved = session.encodeRestorableTree()
            XCTAssertEqual(saved, session.restorableTreeEncodedAfresh(), "after \(name)")
            XCTAssertNotEqual(saved, earlier, "\(name) changed nothing restoration saves")
            earlier = saved
        }
    }

    func testEncodeRestorableChanges_afterEachChangeOfEveryContainer_thenTheyAreTheDifferenceFromTheLastDocument() async throws {
        let session = try showEveryContainer()
        let pages = { try XCTUnwrap(session.descendant(at: "home/pages") as? PaginatedController) }
        let menu = { try XCTUnwrap(session.descendant(at: "home") as? MenuController) }
        let inbox = { try XCTUnwrap(session.descendant(at: "home/inbox") as? NavigationController) }
        let changes: [(String, () throws -> Void)] = [
            ("page 2", { try pages().setPage(2, animated: false) }),
            ("inbox", { try menu().select(identifier: "inbox") }),
            ("push", { try inbox().push(identifier: "message", animated: false) }),
            ("pop", { _ = try inbox().pop(animated: false) }),
            ("present", { try session.present(identifier: "notice", animated: false) }),
            ("dismiss", { _ = session.dismiss(animated: false) }),
            ("restoration identifier", { session.descendant(at: "home/pages")?.restorationIdentifier = "book" }),
            ("restoration identifier removed", { session.descendant(at: "home/inbox")?.restorationIdentifier = nil }),
            ("log out", { _ = session.logOut() }),
        ]
        var earlier = session.encodeRestorableChanges(since: RestorationDocument()).document
        for (name, change) in changes {
            try change()
            let (saved, changed) = session.encodeRestorableChanges(since: earlier)
            XCTAssertEqual(saved, session.restorableTreeEncodedAfresh(), "after \(name)")
            XCTAssertEqual(changed, saved.changes(since: earlier), "after \(name)")
            XCTAssertFalse(changed.isEmpty, "\(name) changed nothing restoration saves")
            earlier = saved
        }
    }

    func testEncodeRestorableChanges_whenAPageTurns_thenReportsThePaginatedContainerAlone() async throws {
        let session = try showEveryContainer()
        let earlier = session.encodeRestorableChanges(since: RestorationDocument()).document
        try XCTUnwrap(session.descendant(at: "home/pages") as? PaginatedController).setPage(2, animated: false)

        let (saved, changed) = session.encodeRestorableChanges(since: earlier)

        XCTAssertEqual(Array(changed.keys), ["session/home/pages"])
        XCTAssertEqual(changed["session/home/pages"]??["index"], .number(2))
        XCTAssertEqual(saved, session.restorableTreeEncodedAfresh())
    }

    func testEncodeRestorableChanges_sinceADocumentOtherThanTheLast_thenReportsTheDifferenceFromIt() async throws {
        let session = try showEveryContainer()
        let pages = try XCTUnwrap(session.descendant(at: "home/pages") as? PaginatedController)
        let earlier = session.encodeRestorableTree()
        try pages.setPage(2, animated: false)
        _ = session.encodeRestorableTree()
        try pages.setPage(1, animated: false)

        let (saved, changed) = session.encodeRestorableChanges(since: earlier)

        XCTAssertEqual(changed, saved.changes(since: earlier))
        XCTAssertEqual(changed["session/home/pages"]??["index"], .number(1))
    }

    func testEncodeRestorableChanges_whenASubtreeComesBackUnchanged_thenItsStateIsSavedAgain() async throws {
        let root = Controller(identifier: "root")
        root.restorationIdentifier = "root"
        let holder = Controller(identifier: "holder")
        holder.restorationIdentifier = "holder"
        let odometer = MarkingOdometer(identifier: "odometer")
        odometer.restorationIdentifier = "odometer"
        odometer.distance = 7
        try holder.addChild(odometer)
        try root.addChild(holder)
        let first = root.encodeRestorableChanges(since: RestorationDocument()).document
        holder.removeFromParent()
        let removed = root.encodeRestorableChanges(since: first)
        let removal: [String: [String: JSONValue]?] = ["root/holder/odometer": nil]
        XCTAssertEqual(removed.changes, removal)

        try root.addChild(holder)
        let (saved, changed) = root.encodeRestorableChanges(since: removed.document)

        XCTAssertEqual(changed, ["root/holder/odometer": ["distance": .number(7)]])
        XCTAssertEqual(saved, root.restorableTreeEncodedAfresh())
    }

    func testEncodeRestorableChanges_whenASubtreeMovesToAnotherParent_thenItsEntriesMoveWithIt() async throws {
        let root = restorableController("root")
        let left = restorableController("left")
        let right = restorableController("right")
        let moving = restorableController("moving")
        let odometer = MarkingOdometer(identifier: "odometer")
        odometer.restorationIdentifier = "odometer"
        odometer.distance = 7
        try moving.addChild(odometer)
        try left.addChild(moving)
        try root.addChild(left)
        try root.addChild(right)
        let first = root.encodeRestorableChanges(since: RestorationDocument()).document

        moving.removeFromParent()
        try right.addChild(moving)
        let (saved, changed) = root.encodeRestorableChanges(since: first)

        XCTAssertEqual(saved.controllers["root/right/moving/odometer"]?["distance"], .number(7))
        XCTAssertEqual(changed["root/left/moving/odometer"], .some(nil))
        XCTAssertEqual(changed["root/right/moving/odometer"], ["distance": .number(7)])
        XCTAssertEqual(saved, root.restorableTreeEncodedAfresh())
    }

    func testEncodeRestorableChanges_whenASubtreeWasEncodedAlone_thenTheTreesNextEncodingStillHasItsChange() async throws {
        let root = restorableController("root")
        let holder = restorableController("holder")
        let odometer = MarkingOdometer(identifier: "odometer")
        odometer.restorationIdentifier = "odometer"
        try holder.addChild(odometer)
        try root.addChild(holder)
        let first = root.encodeRestorableChanges(since: RestorationDocument()).document

        odometer.distance = 9
        _ = holder.encodeRestorableTree()
        let (saved, changed) = root.encodeRestorableChanges(since: first)

        XCTAssertEqual(changed, ["root/holder/odometer": ["distance": .number(9)]])
        XCTAssertEqual(saved, root.restorableTreeEncodedAfresh())
    }

    private func restorableController(_ identifier: String) -> Controller {
        let controller = Controller(identifier: identifier)
        controller.restorationIdentifier = identifier
        return controller
    }

    func testEncodeRestorableTree_whenAPageTurns_thenEncodesNoneOfTheOtherPages() async throws {
        let pageControllers = (0..<50).map { CountingPage(identifier: "page-\($0)") }
        for page in pageControllers { page.restorationIdentifier = page.identifier }
        let pages = try PaginatedController(identifier: "pages", pages: pageControllers)
        pages.restorationIdentifier = "pages"
        show(pages)
        _ = pages.encodeRestorableTree()
        let encoded = pageControllers.map(\.encodings)

        try pages.setPage(1, animated: false)
        let saved = pages.encodeRestorableTree()

        XCTAssertEqual(saved.controllers["pages"]?["index"], .number(1))
        XCTAssertEqual(zip(pageControllers, encoded).map { $0.encodings - $1 }.reduce(0, +), 2)
        XCTAssertEqual(saved, pages.restorableTreeEncodedAfresh())
    }

    func testEncodeRestorableTree_whenASubclassThatDoesNotSayItMarksChanges_thenItsChangeIsSaved() async throws {
        let odometer = Odometer(identifier: "odometer")
        odometer.restorationIdentifier = "odometer"
        let root = try StackController(identifier: "root", arrangedChildren: [odometer])
        root.restorationIdentifier = "root"
        _ = root.encodeRestorableTree()

        odometer.distance = 42
        let saved = root.encodeRestorableTree()

        XCTAssertEqual(saved.controllers["root/odometer"]?["distance"], .number(42))
    }

    func testEncodeRestorableTree_whenADismissalWaitsForThePresentation_thenSavesNoPresentation() async throws {
        let root = Controller(identifier: "root")
        root.restorationIdentifier = "root"
        show(root)
        let overlay = Controller(identifier: "overlay")
        overlay.restorationIdentifier = "overlay"
        overlay.modalTransitionDuration = .seconds(1)
        try root.present(overlay, animated: true)
        XCTAssertEqual(root.encodeRestorableTree().controllers["root"]?["presented"], .string("overlay"))

        _ = root.dismiss(animated: true)
        let saved = root.encodeRestorableTree()

        XCTAssertEqual(saved.controllers["root"]?["presented"], .null)
        XCTAssertEqual(saved, root.restorableTreeEncodedAfresh())
    }
}
