import Foundation
import StateContainers
import XCTest

@MainActor
final class MenuControllerTests: ContainersATestCase {
    /// A restorable menu of three titled, recorded items.
    private func makeMenu() throws -> (MenuController, ContainersALog) {
        let log = ContainersALog()
        let items = [("pages", "Pages"), ("inbox", "Inbox"), ("dashboard", "Dashboard")].map { ContainersARecorder($0, title: $1, log: log) }
        let menu = try MenuController(identifier: "home", viewControllers: items, title: "Home")
        menu.restorationIdentifier = "home"
        _ = log.take()
        return (menu, log)
    }

    func testInit_thenTheFirstItemIsActiveAndGivesItsTitle() async throws {
        let (menu, log) = try makeMenu()

        show(menu)

        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
        XCTAssertTrue(menu.currentChild === menu.activeViewController)
        XCTAssertEqual(menu.title, "Pages")
        XCTAssertFalse(menu.isMenuVisible)
        XCTAssertEqual(menu.children.map(\.identifier), ["pages", "inbox", "dashboard"])
        XCTAssertEqual(log.take(), ["pages.viewDidLoad", "pages.viewWillAppear(false)", "pages.viewDidAppear(false)"])
        XCTAssertTrue(containersAInstalledViews(of: menu, are: [menu.viewControllers[0]]))
    }

    func testInit_whenEmptyOrInvalid_thenHasNoActiveItemOrThrows() async throws {
        let empty = try MenuController(identifier: "home", viewControllers: [], title: "Home")
        show(empty)
        XCTAssertNil(empty.activeViewController)
        XCTAssertEqual(empty.title, "Home")
        XCTAssertTrue(empty.view.subviews.isEmpty)

        XCTAssertThrowsError(try MenuController(identifier: "home", viewControllers: [Controller(identifier: "a"), Controller(identifier: "a")])) { error in
            XCTAssertEqual(error as? ContainmentError, .duplicateIdentifier)
        }
    }

    func testSelect_thenSwapsTheShownItemFollowsItsTitleAndHidesTheMenu() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        menu.showMenu()
        _ = log.take()

        try menu.select(identifier: "inbox")

        XCTAssertEqual(log.take(), [
            "inbox.viewDidLoad",
            "pages.viewWillDisappear(false)",
            "inbox.viewWillAppear(false)",
            "pages.viewDidDisappear(false)",
            "inbox.viewDidAppear(false)",
        ])
        XCTAssertEqual(menu.activeViewController?.identifier, "inbox")
        XCTAssertEqual(menu.title, "Inbox")
        XCTAssertFalse(menu.isMenuVisible)
        XCTAssertTrue(containersAInstalledViews(of: menu, are: [menu.viewControllers[1]]))
        XCTAssertEqual(menu.viewControllers[1].view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
    }

    func testSelect_whenTheItemIsAlreadyActive_thenOnlyHidesTheMenu() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        menu.showMenu()
        _ = log.take()

        try menu.select(identifier: "pages")

        XCTAssertEqual(log.take(), [])
        XCTAssertFalse(menu.isMenuVisible)
    }

    func testSelect_whenUnknown_thenThrowsNoSuchChildAndChangesNothing() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        menu.showMenu()
        _ = log.take()

        XCTAssertThrowsError(try menu.select(identifier: "nope")) { error in
            XCTAssertEqual(error as? ContainmentError, .noSuchChild)
        }
        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
        XCTAssertTrue(menu.isMenuVisible)
        XCTAssertEqual(log.take(), [])
    }

    func testSelect_whenATransitionIsInFlight_thenThrowsTransitionInProgress() async throws {
        let (menu, log) = try makeMenu()
        let clock = ManualClock()
        show(menu, clock: clock)
        menu.transitionDuration = .seconds(1)
        try menu.select(identifier: "inbox")
        _ = log.take()

        XCTAssertThrowsError(try menu.select(identifier: "dashboard")) { error in
            XCTAssertEqual(error as? ContainmentError, .transitionInProgress)
        }
        XCTAssertThrowsError(try menu.setViewControllers([])) { error in
            XCTAssertEqual(error as? ContainmentError, .transitionInProgress)
        }
        XCTAssertEqual(menu.activeViewController?.identifier, "inbox")
        XCTAssertEqual(menu.viewControllers.count, 3)
        XCTAssertEqual(log.take(), [])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), ["pages.viewDidDisappear(true)", "inbox.viewDidAppear(true)"])
    }

    func testShowHideToggle_thenVisibilityFollowsAndTheSnapshotReportsIt() async throws {
        let (menu, _) = try makeMenu()

        menu.showMenu()
        XCTAssertTrue(menu.isMenuVisible)
        XCTAssertEqual(menu.snapshot().menuVisible, true)
        menu.hideMenu()
        XCTAssertFalse(menu.isMenuVisible)
        menu.toggleMenu()
        XCTAssertTrue(menu.isMenuVisible)
        menu.toggleMenu()
        XCTAssertEqual(menu.snapshot().menuVisible, false)
    }

    func testSetViewControllers_whenTheActiveItemStays_thenKeepsItAndMovesOnlyTheOthers() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        try menu.select(identifier: "inbox")
        _ = log.take()
        let inbox = menu.viewControllers[1]
        let settings = ContainersARecorder("settings", title: "Settings", log: log)

        try menu.setViewControllers([settings, inbox])

        XCTAssertEqual(log.take(), [
            "pages.willMove(toParent: nil)", "pages.didMove(toParent: nil)",
            "dashboard.willMove(toParent: nil)", "dashboard.didMove(toParent: nil)",
            "settings.willMove(toParent: home)", "settings.didMove(toParent: home)",
        ])
        XCTAssertTrue(menu.activeViewController === inbox)
        XCTAssertEqual(menu.viewControllers.map(\.identifier), ["settings", "inbox"])
        XCTAssertEqual(menu.children.map(\.identifier), ["settings", "inbox"])
        XCTAssertFalse(settings.isViewLoaded)
    }

    func testSetViewControllers_whenTheActiveItemLeaves_thenTheFirstSwapsInWithTheFullTimeline() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        _ = log.take()
        let settings = ContainersARecorder("settings", title: "Settings", log: log)

        try menu.setViewControllers([settings, menu.viewControllers[1]])

        XCTAssertEqual(log.take(), [
            "pages.willMove(toParent: nil)",
            "dashboard.willMove(toParent: nil)", "dashboard.didMove(toParent: nil)",
            "settings.willMove(toParent: home)",
            "settings.viewDidLoad",
            "pages.viewWillDisappear(false)",
            "settings.viewWillAppear(false)",
            "pages.viewDidDisappear(false)",
            "settings.viewDidAppear(false)",
            "pages.didMove(toParent: nil)",
            "settings.didMove(toParent: home)",
        ])
        XCTAssertTrue(menu.activeViewController === settings)
        XCTAssertEqual(menu.title, "Settings")
        XCTAssertEqual(menu.children.map(\.identifier), ["settings", "inbox"])
        XCTAssertTrue(containersAInstalledViews(of: menu, are: [settings]))
    }

    func testSetViewControllers_whenAnimated_thenTheLeavingItemStaysAChildUntilTheSwapFinishes() async throws {
        let (menu, log) = try makeMenu()
        let clock = ManualClock()
        show(menu, clock: clock)
        menu.transitionDuration = .milliseconds(250)
        let inbox = menu.viewControllers[1]
        _ = log.take()

        try menu.setViewControllers([inbox])

        XCTAssertEqual(menu.children.map(\.identifier), ["inbox", "pages"])
        XCTAssertEqual(log.take(), [
            "pages.willMove(toParent: nil)",
            "dashboard.willMove(toParent: nil)", "dashboard.didMove(toParent: nil)",
            "inbox.viewDidLoad",
            "pages.viewWillDisappear(true)",
            "inbox.viewWillAppear(true)",
        ])
        clock.advance(by: .milliseconds(250))
        XCTAssertEqual(log.take(), ["pages.viewDidDisappear(true)", "inbox.viewDidAppear(true)", "pages.didMove(toParent: nil)"])
        XCTAssertEqual(menu.children.map(\.identifier), ["inbox"])
    }

    func testSetViewControllers_whenANewcomerTakesTheActiveIdentifier_thenTheOldLeavesBeforeItJoins() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        _ = log.take()
        let replacement = ContainersARecorder("pages", title: "New pages", log: log)

        try menu.setViewControllers([replacement])

        XCTAssertEqual(log.take(), [
            "pages.willMove(toParent: nil)",
            "inbox.willMove(toParent: nil)", "inbox.didMove(toParent: nil)",
            "dashboard.willMove(toParent: nil)", "dashboard.didMove(toParent: nil)",
            "pages.viewWillDisappear(false)", "pages.viewDidDisappear(false)",
            "pages.didMove(toParent: nil)",
            "pages.willMove(toParent: home)",
            "pages.viewDidLoad",
            "pages.viewWillAppear(false)", "pages.viewDidAppear(false)",
            "pages.didMove(toParent: home)",
        ])
        XCTAssertTrue(menu.activeViewController === replacement)
        XCTAssertEqual(menu.title, "New pages")
    }

    func testSetViewControllers_whenEmpty_thenTheActiveItemLeavesAndTheOwnTitleShows() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        _ = log.take()

        try menu.setViewControllers([])

        XCTAssertNil(menu.activeViewController)
        XCTAssertEqual(menu.title, "Home")
        XCTAssertTrue(menu.children.isEmpty)
        XCTAssertTrue(menu.view.subviews.isEmpty)
        XCTAssertEqual(log.take().filter { $0.hasPrefix("pages.") }, [
            "pages.willMove(toParent: nil)", "pages.viewWillDisappear(false)", "pages.viewDidDisappear(false)", "pages.didMove(toParent: nil)",
        ])

        let first = ContainersARecorder("first", log: log)
        try menu.setViewControllers([first])
        XCTAssertEqual(log.take(), [
            "first.willMove(toParent: home)", "first.viewDidLoad", "first.viewWillAppear(false)", "first.viewDidAppear(false)", "first.didMove(toParent: home)",
        ])
        XCTAssertEqual(menu.title, "Home")
    }

    func testSetViewControllers_whenInvalid_thenThrowsAndChangesNothing() async throws {
        let (menu, log) = try makeMenu()
        show(menu)
        _ = log.take()
        let inbox = menu.viewControllers[1]

        let invalidLists: [([Controller], ContainmentError)] = [
            ([inbox, ContainersARecorder("inbox", log: log)], .duplicateIdentifier),
            ([inbox, inbox], .duplicateIdentifier),
            ([ContainersARecorder("a/b", log: log)], .invalidArgument),
            ([inbox, menu], .cycle),
        ]
        for (list, expected) in invalidLists {
            XCTAssertThrowsError(try menu.setViewControllers(list)) { error in
                XCTAssertEqual(error as? ContainmentError, expected)
            }
        }
        XCTAssertEqual(menu.viewControllers.map(\.identifier), ["pages", "inbox", "dashboard"])
        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
        XCTAssertEqual(log.take(), [])
    }

    func testSnapshot_thenTheActiveItemIsCurrentAndTheTitleFollowsIt() async throws {
        let (menu, _) = try makeMenu()
        show(menu)
        try menu.select(identifier: "dashboard")

        let snapshot = menu.snapshot()

        XCTAssertEqual(snapshot.type, "MenuController")
        XCTAssertEqual(snapshot.current, "dashboard")
        XCTAssertEqual(snapshot.title, "Dashboard")
        XCTAssertEqual(snapshot.menuVisible, false)
        XCTAssertEqual(snapshot.children.map(\.path), ["home/pages", "home/inbox", "home/dashboard"])
    }

    func testRestoration_whenDecodedIntoAFreshTreeBeforeItAppears_thenTheSameItemIsActiveAndAppearsOnce() async throws {
        let (menu, _) = try makeMenu()
        show(menu)
        try menu.select(identifier: "dashboard")
        menu.showMenu()
        let saved = try JSONDecoder().decode(RestorationDocument.self, from: JSONEncoder().encode(menu.encodeRestorableTree()))
        XCTAssertEqual(saved.controllers["home"], ["active": "dashboard"])
        let (fresh, freshLog) = try makeMenu()

        try fresh.decodeRestorableTree(saved)

        XCTAssertEqual(fresh.activeViewController?.identifier, "dashboard")
        XCTAssertEqual(fresh.title, "Dashboard")
        XCTAssertFalse(fresh.isMenuVisible)
        XCTAssertFalse(fresh.isViewLoaded)
        XCTAssertEqual(freshLog.take(), [])
        show(fresh)
        XCTAssertEqual(freshLog.take(), ["dashboard.viewDidLoad", "dashboard.viewWillAppear(false)", "dashboard.viewDidAppear(false)"])
    }

    func testRestoration_whenTheSavedItemIsUnknown_thenKeepsTheActiveItem() async throws {
        let (menu, _) = try makeMenu()

        try menu.decodeRestorableTree(RestorationDocument(controllers: ["home": ["active": "gone"]]))
        try menu.decodeRestorableTree(RestorationDocument(controllers: ["home": ["active": 3]]))

        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
    }
}
