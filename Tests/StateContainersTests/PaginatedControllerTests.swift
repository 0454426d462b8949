import AppStateCore
import Foundation
import StateContainers
import XCTest

final class PaginatedControllerTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .labelled }

    /// A restorable pager of three recorded pages, with the log of its construction cleared.
    private func makePager() throws -> PaginatedController {
        let pager = try PaginatedController(identifier: "pages", pages: ["overview", "activity", "settings"].map { controller($0) })
        pager.restorationIdentifier = "pages"
        _ = log.take()
        return pager
    }

    func testInit_whenPagesEmpty_thenThrowsInvalidArgument() async {
        assertThrows(.invalidArgument) { try PaginatedController(identifier: "pages", pages: []) }
    }

    func testInit_whenPageIdentifiersDuplicateOrInvalid_thenThrowsAndAdoptsNothing() async throws {
        let first = controller("a")
        assertThrows(.duplicateIdentifier) { try PaginatedController(identifier: "pages", pages: [first, controller("a")]) }
        assertThrows(.invalidArgument) { try PaginatedController(identifier: "pages", pages: [first, controller("b/c")]) }
        assertThrows(.invalidArgument) { try PaginatedController(identifier: "pages", pages: [first, controller("")]) }
        XCTAssertNil(first.parent)
        XCTAssertEqual(log.take(), [])
    }

    func testInit_thenEveryPageIsAChildAndTheFirstIsCurrent() async throws {
        let pager = try makePager()
        XCTAssertEqual(pager.children.map(\.identifier), ["overview", "activity", "settings"])
        XCTAssertEqual(pager.currentIndex, 0)
        XCTAssertTrue(pager.currentPage === pager.page("overview"))
        XCTAssertTrue(pager.currentChild === pager.page("overview"))
        XCTAssertTrue(pager.descendant(at: "settings") === pager.page("settings"))
        XCTAssertEqual(pager.page("settings").path, "pages/settings")
        XCTAssertFalse(pager.isViewLoaded)
    }

    func testAppear_thenOnlyTheCurrentPageIsLoadedInstalledAndFillsTheContainer() async throws {
        let pager = try makePager()
        show(pager)

        XCTAssertEqual(log.take(), ["overview.viewDidLoad", "overview.viewWillAppear(false)", "overview.viewDidAppear(false)"])
        XCTAssertTrue(pager.page("overview").view.superview === pager.view)
        XCTAssertEqual(pager.page("overview").view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
        XCTAssertFalse(pager.page("activity").isViewLoaded)
        XCTAssertFalse(pager.page("settings").isViewLoaded)
        XCTAssertEqual(pager.view.subviews.count, 1)
    }

    func testSetPage_whenNotAnimated_thenSwapsSynchronouslyWithTheTransitionCallbacks() async throws {
        let pager = try makePager()
        showClearingLog(pager)

        try pager.setPage(1, animated: false)

        XCTAssertEqual(log.take(), log.swap(from: "overview", to: "activity", in: "pages", oldLeaves: false, newJoins: false))
        XCTAssertEqual(pager.currentIndex, 1)
        XCTAssertTrue(pager.currentPage === pager.page("activity"))
        XCTAssertNil(pager.page("overview").view.superview)
        XCTAssertTrue(pager.installsExactly([pager.page("activity")]))
        XCTAssertEqual(pager.page("activity").view.frame, pager.view.bounds)
        XCTAssertEqual(pager.page("overview").appearance, .disappeared)
        XCTAssertEqual(pager.page("activity").appearance, .appeared)
        XCTAssertEqual(pager.children.count, 3)
    }

    func testSetPage_thenNoPageIsMovingToOrFromAParent() async throws {
        let pager = try makePager()
        show(pager)

        try pager.setPage(1, animated: false)

        XCTAssertEqual((pager.page("overview") as? LoggingController)?.movements.dropFirst(2), ["viewWillDisappear: -", "viewDidDisappear: -"])
        XCTAssertEqual((pager.page("activity") as? LoggingController)?.movements, ["viewWillAppear: -", "viewDidAppear: -"])
    }

    func testSetPage_whenAnimated_thenFinishesWhenTheClockReachesTheDuration() async throws {
        let pager = try makePager()
        pager.transitionDuration = .milliseconds(300)
        showClearingLog(pager)

        try pager.setPage(2, animated: true)

        XCTAssertEqual(log.take(), ["settings.viewDidLoad", "overview.viewWillDisappear(true)", "settings.viewWillAppear(true)"])
        XCTAssertEqual(pager.currentIndex, 2)
        XCTAssertEqual(pager.view.subviews.count, 2)
        clock.advance(by: .milliseconds(299))
        XCTAssertEqual(log.take(), [])
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(log.take(), ["overview.viewDidDisappear(true)", "settings.viewDidAppear(true)"])
        XCTAssertTrue(pager.installsExactly([pager.page("settings")]))
    }

    func testSetPage_whenATransitionIsInFlight_thenThrowsTransitionInProgressAndChangesNothing() async throws {
        let pager = try makePager()
        show(pager)
        pager.transitionDuration = .seconds(1)
        try pager.next()
        _ = log.take()

        assertThrows(.transitionInProgress) { try pager.setPage(2, animated: false) }
        assertThrows(.transitionInProgress) { try pager.previous() }
        XCTAssertEqual(pager.currentIndex, 1)
        XCTAssertEqual(log.take(), [])

        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), ["overview.viewDidDisappear(true)", "activity.viewDidAppear(true)"])
        try pager.setPage(2, animated: false)
        XCTAssertEqual(pager.currentIndex, 2)
    }

    func testSetPage_whenIndexOutOfRange_thenThrowsAndKeepsPage() async throws {
        let pager = try makePager()
        show(pager)
        try pager.setPage(1, animated: false)
        _ = log.take()

        for index in [42, 3, -1, Int.min, Int.max] {
            let error = assertThrows(.outOfRange) { try pager.setPage(index, animated: true) }
            XCTAssertEqual(error?.description, "pages has 3 pages; \(index) is out of range")
        }
        XCTAssertEqual(pager.currentIndex, 1)
        XCTAssertEqual(log.take(), [])
    }

    func testSetPage_whenSameIndex_thenDoesNothing() async throws {
        let pager = try makePager()
        showClearingLog(pager)

        try pager.setPage(0, animated: true)

        XCTAssertEqual(log.take(), [])
        XCTAssertEqual(pager.currentIndex, 0)
    }

    func testSetPageIdentifier_whenKnown_thenShowsItAndWhenUnknown_thenThrowsNoSuchChild() async throws {
        let pager = try makePager()
        show(pager)

        try pager.setPage(identifier: "settings", animated: false)
        XCTAssertEqual(pager.currentIndex, 2)
        _ = log.take()

        assertThrows(.noSuchChild) { try pager.setPage(identifier: "nope", animated: false) }
        XCTAssertEqual(pager.currentIndex, 2)
        XCTAssertEqual(log.take(), [])
    }

    func testNextAndPrevious_whenAtTheEnds_thenThrowOutOfRangeAndKeepThePage() async throws {
        let pager = try makePager()
        assertThrows(.outOfRange) { try pager.previous() }
        try pager.next()
        try pager.next()
        XCTAssertEqual(pager.currentIndex, 2)
        XCTAssertEqual(assertThrows(.outOfRange) { try pager.next() }?.description, "pages has 3 pages; 3 is out of range")
        XCTAssertEqual(pager.currentIndex, 2)
        try pager.previous()
        XCTAssertEqual(pager.currentIndex, 1)
    }

    func testSetPage_whenViewNotLoaded_thenLoadsNothingAndTheNewPageAppearsLater() async throws {
        let pager = try makePager()
        try pager.setPage(2, animated: true)

        XCTAssertEqual(log.take(), [])
        XCTAssertFalse(pager.isViewLoaded)
        show(pager)
        XCTAssertEqual(log.take(), ["settings.viewDidLoad", "settings.viewWillAppear(false)", "settings.viewDidAppear(false)"])
    }

    func testSetPage_whenLoadedButOffScreen_thenSwapsViewsWithoutAppearanceCallbacks() async throws {
        let pager = try makePager()
        let window = hiddenWindow(root: pager)
        pager.transitionDuration = .seconds(1)

        try pager.setPage(1, animated: true)

        XCTAssertEqual(log.take(), ["activity.viewDidLoad"])
        XCTAssertTrue(pager.installsExactly([pager.page("activity")]))
        XCTAssertEqual(pager.page("activity").view.frame, Rect(x: 0, y: 0, width: 400, height: 300))
        window.makeVisible()
        XCTAssertEqual(log.take(), ["activity.viewWillAppear(false)", "activity.viewDidAppear(false)"])
    }

    func testSetPage_whenThePageWasTakenByAnotherContainer_thenDoesNotTrapOrTouchItsView() async throws {
        let pager = try makePager()
        show(pager)
        let thief = Controller(identifier: "thief")
        try thief.embed(pager.page("settings"))

        try pager.setPage(2, animated: false)

        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(pager.view.subviews.isEmpty)
        XCTAssertTrue(pager.page("settings").view.superview === thief.view)
    }

    func testResize_thenTheCurrentPageFillsTheNewBoundsAndIsTold() async throws {
        let pager = try makePager()
        let window = showClearingLog(pager)

        window.resize(to: Size(width: 800, height: 1280))

        XCTAssertEqual(log.take(), ["overview.viewWillTransition(to: 800x1280)"])
        XCTAssertEqual(pager.page("overview").view.frame, Rect(x: 0, y: 0, width: 800, height: 1280))
    }

    func testSnapshot_thenReportsPageIndexCountAndCurrentAndListsEveryPage() async throws {
        let pager = try makePager()
        show(pager)
        try pager.setPage(identifier: "activity", animated: false)

        let snapshot = pager.snapshot()

        assertSnapshot(
            snapshot, type: "PaginatedController", current: "activity", childPaths: ["pages/overview", "pages/activity", "pages/settings"])
        XCTAssertEqual(snapshot.pageIndex, 1)
        XCTAssertEqual(snapshot.pageCount, 3)
        XCTAssertEqual(snapshot.node(at: "pages/activity")?.appearance, .appeared)
        XCTAssertEqual(snapshot.node(at: "pages/activity")?.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
        XCTAssertEqual(snapshot.node(at: "pages/overview")?.onScreen, false)
        XCTAssertEqual(snapshot.node(at: "pages/settings")?.frame, .zero)
    }

    func testRestoration_whenDecodedIntoAFreshTreeBeforeItAppears_thenTheSamePageIsCurrentAndAppearsOnce() async throws {
        let pager = try makePager()
        show(pager)
        try pager.setPage(2, animated: false)
        let saved = try pager.restorableTreeSavedThroughJSON()
        XCTAssertEqual(saved.controllers["pages"], ["page": "settings", "index": 2])
        let fresh = try makePager()

        try fresh.decodeRestorableTree(saved)

        XCTAssertEqual(fresh.currentIndex, 2)
        XCTAssertEqual(log.take(), [])
        XCTAssertFalse(fresh.isViewLoaded)
        show(fresh)
        XCTAssertEqual(log.take(), ["settings.viewDidLoad", "settings.viewWillAppear(false)", "settings.viewDidAppear(false)"])
        XCTAssertEqual(fresh.snapshot().pageIndex, 2)
    }

    func testRestoration_whenDecodedAfterLoadingButBeforeAppearing_thenSwapsWithoutAppearanceCallbacks() async throws {
        let fresh = try makePager()
        let window = Window(size: Size(width: 1280, height: 800))
        window.rootController = fresh
        XCTAssertEqual(log.take(), ["overview.viewDidLoad"])

        try fresh.decodeRestorableTree(RestorationDocument(controllers: ["pages": ["page": "activity", "index": 1]]))

        XCTAssertEqual(log.take(), ["activity.viewDidLoad"])
        window.makeVisible()
        XCTAssertEqual(log.take(), ["activity.viewWillAppear(false)", "activity.viewDidAppear(false)"])
    }

    func testRestoration_whenTheSavedPageWasRenamed_thenFallsBackToTheIndexAndIgnoresGarbage() async throws {
        let fresh = try makePager()

        try fresh.decodeRestorableTree(RestorationDocument(controllers: ["pages": ["page": "old-name", "index": 1]]))
        XCTAssertEqual(fresh.currentIndex, 1)

        try fresh.decodeRestorableTree(RestorationDocument(controllers: ["pages": ["page": 7, "index": 99]]))
        try fresh.decodeRestorableTree(RestorationDocument(controllers: ["pages": ["index": -1]]))
        try fresh.decodeRestorableTree(RestorationDocument(controllers: ["pages": ["index": 1.5]]))
        XCTAssertEqual(fresh.currentIndex, 1)
    }
}

extension PaginatedController {
    fileprivate func page(_ identifier: String) -> Controller {
        pages.first { $0.identifier == identifier }!
    }
}
