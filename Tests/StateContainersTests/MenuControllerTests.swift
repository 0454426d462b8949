import AppStateCore
import Foundation
import StateContainers
import TestSupport
import XCTest

final class MenuControllerTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .labelled }

    /// A restorable menu of three titled, recorded items.
    private func makeMenu() throws -> MenuController {
        let items = [("pages", "Pages"), ("inbox", "Inbox"), ("dashboard", "Dashboard")].map { controller($0, title: $1) }
        let menu = try MenuController(identifier: "home", viewControllers: items, title: "Home")
        menu.restorationIdentifier = "home"
        _ = log.take()
        return menu
    }

    /// The menu of ``makeMenu()`` on screen with its drop-down open, the log cleared: where a
    /// selection starts.
    private func showMenuOpen() throws -> MenuController {
        let menu = try makeMenu()
        showClearingLog(menu)
        menu.showMenu()
        return menu
    }

    func testInit_thenTheFirstItemIsActiveAndGivesItsTitle() async throws {
        let menu = try makeMenu()

        show(menu)

        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
        XCTAssertTrue(menu.currentChild === menu.activeViewController)
        XCTAssertEqual(menu.title, "Pages")
        XCTAssertFalse(menu.isMenuVisible)
        XCTAssertEqual(menu.children.map(\.identifier), ["pages", "inbox", "dashboard"])
        XCTAssertEqual(log.take(), ["pages.viewDidLoad", "pages.viewWillAppear(false)", "pages.viewDidAppear(false)"])
        XCTAssertTrue(menu.installsExactly([menu.viewControllers[0]]))
    }

    func testInit_whenEmptyOrInvalid_thenHasNoActiveItemOrThrows() async throws {
        let empty = try MenuController(identifier: "home", viewControllers: [], title: "Home")
        show(empty)
        XCTAssertNil(empty.activeViewController)
        XCTAssertEqual(empty.title, "Home")
        XCTAssertTrue(empty.view.subviews.isEmpty)

        assertThrows(.duplicateIdentifier) {
            try MenuController(identifier: "home", viewControllers: [Controller(identifier: "a"), Controller(identifier: "a")])
        }
    }

    func testSelect_thenSwapsTheShownItemFollowsItsTitleAndHidesTheMenu() async throws {
        let menu = try showMenuOpen()

        try menu.select(identifier: "inbox")

        XCTAssertEqual(log.take(), log.swap(from: "pages", to: "inbox", in: "home", oldLeaves: false, newJoins: false))
        XCTAssertEqual(menu.activeViewController?.identifier, "inbox")
        XCTAssertEqual(menu.title, "Inbox")
        XCTAssertFalse(menu.isMenuVisible)
        XCTAssertTrue(menu.installsExactly([menu.viewControllers[1]]))
        XCTAssertEqual(menu.viewControllers[1].view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
    }

    func testSelect_whenTheItemIsAlreadyActive_thenOnlyHidesTheMenu() async throws {
        let menu = try showMenuOpen()

        try menu.select(identifier: "pages")

        XCTAssertEqual(log.take(), [])
        XCTAssertFalse(menu.isMenuVisible)
    }

    func testSelect_whenUnknown_thenThrowsNoSuchChildAndChangesNothing() async throws {
        let menu = try showMenuOpen()

        assertThrows(.noSuchChild) { try menu.select(identifier: "nope") }
        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
        XCTAssertTrue(menu.isMenuVisible)
        XCTAssertEqual(log.take(), [])
    }

    func testSelect_whenATransitionIsInFlight_thenThrowsTransitionInProgress() async throws {
        let menu = try makeMenu()
        show(menu)
        menu.transitionDuration = .seconds(1)
        try menu.select(identifier: "inbox")
        _ = log.take()

        assertThrows(.transitionInProgress) { try menu.select(identifier: "dashboard") }
        assertThrows(.transitionInProgress) { try menu.setViewControllers([]) }
        XCTAssertEqual(menu.activeViewController?.identifier, "inbox")
        XCTAssertEqual(menu.viewControllers.count, 3)
        XCTAssertEqual(log.take(), [])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), ["pages.viewDidDisappear(true)", "inbox.viewDidAppear(true)"])
    }

    func testShowHideToggle_thenVisibilityFollowsAndTheSnapshotReportsIt() async throws {
        let menu = try makeMenu()

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
        let menu = try makeMenu()
        show(menu)
        try menu.select(identifier: "inbox")
        _ = log.take()
        let inbox = menu.viewControllers[1]
        let settings = controller("settings", title: "Settings")

        try menu.setViewControllers([settings, inbox])

        XCTAssertEqual(
            log.take(),
            [
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
        let menu = try makeMenu()
        showClearingLog(menu)
        let settings = controller("settings", title: "Settings")

        try menu.setViewControllers([settings, menu.viewControllers[1]])

        XCTAssertEqual(
            log.take(),
            [
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
        XCTAssertTrue(menu.installsExactly([settings]))
    }

    func testSetViewControllers_whenAnimated_thenTheLeavingItemStaysAChildUntilTheSwapFinishes() async throws {
        let menu = try makeMenu()
        show(menu)
        menu.transitionDuration = .milliseconds(250)
        let inbox = menu.viewControllers[1]
        _ = log.take()

        try menu.setViewControllers([inbox])

        XCTAssertEqual(menu.children.map(\.identifier), ["inbox", "pages"])
        XCTAssertEqual(
            log.take(),
            [
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
        let menu = try makeMenu()
        showClearingLog(menu)
        let replacement = controller("pages", title: "New pages")

        try menu.setViewControllers([replacement])

        XCTAssertEqual(
            log.take(),
            [
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
        let menu = try makeMenu()
        showClearingLog(menu)

        try menu.setViewControllers([])

        XCTAssertNil(menu.activeViewController)
        XCTAssertEqual(menu.title, "Home")
        XCTAssertTrue(menu.children.isEmpty)
        XCTAssertTrue(menu.view.subviews.isEmpty)
        XCTAssertEqual(
            log.take().filter { $0.hasPrefix("pages.") },
            [
                "pages.willMove(toParent: nil)", "pages.viewWillDisappear(false)", "pages.viewDidDisappear(false)", "pages.didMove(toParent: nil)",
            ])

        let first = controller("first")
        try menu.setViewControllers([first])
        XCTAssertEqual(
            log.take(),
            [
                "first.willMove(toParent: home)", "first.viewDidLoad", "first.viewWillAppear(false)", "first.viewDidAppear(false)",
                "first.didMove(toParent: home)",
            ])
        XCTAssertEqual(menu.title, "Home")
    }

    func testSetViewControllers_whenInvalid_thenThrowsAndChangesNothing() async throws {
        let menu = try makeMenu()
        showClearingLog(menu)
        let inbox = menu.viewControllers[1]

        let invalidLists: [([Controller], ContainmentError)] = [
            ([inbox, controller("inbox")], .duplicateIdentifier),
            ([inbox, inbox], .duplicateIdentifier),
            ([controller("a/b")], .invalidArgument),
            ([inbox, menu], .cycle),
        ]
        for (list, expected) in invalidLists {
            assertThrows(expected) { try menu.setViewControllers(list) }
        }
        XCTAssertEqual(menu.viewControllers.map(\.identifier), ["pages", "inbox", "dashboard"])
        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
        XCTAssertEqual(log.take(), [])
    }

    func testSnapshot_thenTheActiveItemIsCurrentAndTheTitleFollowsIt() async throws {
        let menu = try makeMenu()
        show(menu)
        try menu.select(identifier: "dashboard")

        let snapshot = menu.snapshot()

        assertSnapshot(snapshot, type: "MenuController", current: "dashboard", childPaths: ["home/pages", "home/inbox", "home/dashboard"])
        XCTAssertEqual(snapshot.title, "Dashboard")
        XCTAssertEqual(snapshot.menuVisible, false)
    }

    func testRestoration_whenDecodedIntoAFreshTreeBeforeItAppears_thenTheSameItemIsActiveAndAppearsOnce() async throws {
        let menu = try makeMenu()
        show(menu)
        try menu.select(identifier: "dashboard")
        menu.showMenu()
        let saved = try menu.restorableTreeSavedThroughJSON()
        XCTAssertEqual(saved.controllers["home"], ["active": "dashboard"])
        let fresh = try makeMenu()

        try fresh.decodeRestorableTree(saved)

        XCTAssertEqual(fresh.activeViewController?.identifier, "dashboard")
        XCTAssertEqual(fresh.title, "Dashboard")
        XCTAssertFalse(fresh.isMenuVisible)
        XCTAssertFalse(fresh.isViewLoaded)
        XCTAssertEqual(log.take(), [])
        show(fresh)
        XCTAssertEqual(log.take(), ["dashboard.viewDidLoad", "dashboard.viewWillAppear(false)", "dashboard.viewDidAppear(false)"])
    }

    func testRestoration_whenTheSavedItemIsUnknown_thenKeepsTheActiveItem() async throws {
        let menu = try makeMenu()

        try menu.decodeRestorableTree(RestorationDocument(controllers: ["home": ["active": "gone"]]))
        try menu.decodeRestorableTree(RestorationDocument(controllers: ["home": ["active": 3]]))

        XCTAssertEqual(menu.activeViewController?.identifier, "pages")
    }

    /// The default tree's `home`: a menu of a paginated container, a navigation stack whose
    /// screens include a paginated gallery, and a stack; every level restorable.
    private func makeHome() throws -> MenuController {
        func restorable<C: Controller>(_ controller: C) -> C {
            controller.restorationIdentifier = controller.identifier
            return controller
        }
        let pages = try PaginatedController(identifier: "pages", pages: ["overview", "activity", "settings"].map { controller($0) })
        let inbox = try NavigationController(identifier: "inbox", root: controller("messages"))
        inbox.makeDestination = { [log] identifier in
            guard identifier == "gallery" else { return LoggingController(identifier, log: log) }
            return try? restorable(PaginatedController(identifier: "gallery", pages: ["photo-1", "photo-2"].map { LoggingController($0, log: log) }))
        }
        let dashboard = try StackController(identifier: "dashboard", arrangedChildren: ["list", "map"].map { controller($0) })
        let home = try MenuController(identifier: "home", viewControllers: [restorable(pages), restorable(inbox), dashboard])
        _ = log.take()
        return restorable(home)
    }

    func testHome_whenHostingTheOtherContainers_thenLayoutAndRestorationReachEveryLevel() async throws {
        let home = try makeHome()
        let window = show(home)
        try home.select(identifier: "dashboard")
        window.resize(to: Size(width: 800, height: 1280))
        XCTAssertEqual(home.snapshot().node(at: "home/dashboard/map")?.frame, Rect(x: 0, y: 640, width: 800, height: 640))
        let pages = try XCTUnwrap(home.descendant(at: "pages") as? PaginatedController)
        let inbox = try XCTUnwrap(home.descendant(at: "inbox") as? NavigationController)
        try pages.setPage(2, animated: false)
        try home.select(identifier: "inbox")
        try inbox.push(identifier: "thread", animated: false)
        try inbox.push(identifier: "gallery", animated: false)
        try XCTUnwrap(inbox.top as? PaginatedController).next()
        XCTAssertEqual(home.deepestCurrent.path, "home/inbox/gallery/photo-2")
        let saved = home.encodeRestorableTree()
        let fresh = try makeHome()

        try fresh.decodeRestorableTree(saved)

        XCTAssertEqual(
            log.take(),
            [
                "thread.willMove(toParent: inbox)", "thread.didMove(toParent: inbox)",
                "photo-1.willMove(toParent: gallery)", "photo-1.didMove(toParent: gallery)",
                "photo-2.willMove(toParent: gallery)", "photo-2.didMove(toParent: gallery)",
            ])
        XCTAssertEqual(fresh.deepestCurrent.path, "home/inbox/gallery/photo-2")
        XCTAssertEqual(fresh.snapshot().node(at: "home/pages")?.pageIndex, 2)
        show(fresh, size: Size(width: 800, height: 1280))
        XCTAssertEqual(log.take(), ["photo-2.viewDidLoad", "photo-2.viewWillAppear(false)", "photo-2.viewDidAppear(false)"])
        XCTAssertEqual(fresh.snapshot().node(at: "home/inbox/gallery/photo-2")?.frame, Rect(x: 0, y: 0, width: 800, height: 1280))
    }

    func testHome_whenAPageTransitionIsInFlight_thenTheMenuWaitsForIt() async throws {
        let home = try makeHome()
        show(home)
        let pages = try XCTUnwrap(home.descendant(at: "pages") as? PaginatedController)
        pages.transitionDuration = .seconds(1)
        try pages.next()

        let error = assertThrows(.transitionInProgress) { try home.select(identifier: "inbox") }
        XCTAssertEqual(error?.description.contains("is still in a transition"), true, "\(String(describing: error))")
        XCTAssertEqual(home.activeViewController?.identifier, "pages")
        clock.advance(by: .seconds(1))
        try home.select(identifier: "inbox")
        XCTAssertEqual(home.activeViewController?.identifier, "inbox")
    }

    func testHome_whileTheMenuSwapsAnItemOut_thenThatItemRefusesToSwapItsOwnChild() async throws {
        let home = try makeHome()
        show(home)
        let pages = try XCTUnwrap(home.descendant(at: "pages") as? PaginatedController)
        let inbox = try XCTUnwrap(home.descendant(at: "inbox") as? NavigationController)
        home.transitionDuration = .seconds(1)
        try home.select(identifier: "inbox")
        _ = log.take()

        assertThrows(.transitionInProgress) { try pages.setPage(2, animated: false) }
        assertThrows(.transitionInProgress) { try inbox.push(identifier: "thread", animated: false) }
        XCTAssertEqual(pages.currentIndex, 0)
        XCTAssertEqual(inbox.stack.count, 1)
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), ["overview.viewDidDisappear(true)", "messages.viewDidAppear(true)"])
        try pages.setPage(2, animated: false)
        try inbox.push(identifier: "thread", animated: false)
        XCTAssertEqual(log.take(), ["settings.viewDidLoad"] + log.swap(from: "messages", to: "thread", in: "inbox", oldLeaves: false))
    }

    func testHome_whenDrivenByRandomOperations_thenNeverTrapsAndShowsOnlyCurrentChildren() async throws {
        for seed: UInt64 in 0..<5 { try driveHomeRandomly(seed: seed) }
    }

    /// Runs 2,000 random operations, animated ones included, on the `home` tree, then checks
    /// that no appearance call was unbalanced and that only current children are installed.
    private func driveHomeRandomly(seed: UInt64) throws {
        let home = try makeHome()
        let window = show(home)
        let pages = try XCTUnwrap(home.descendant(at: "pages") as? PaginatedController)
        let inbox = try XCTUnwrap(home.descendant(at: "inbox") as? NavigationController)
        let items = home.viewControllers
        pages.transitionDuration = .milliseconds(100)
        inbox.transitionDuration = .milliseconds(100)
        home.transitionDuration = .milliseconds(100)
        warnings = []
        var random = SeededGenerator(seed: seed)
        let names = ["thread", "draft", "gallery", "a/b", "", "unknown"]

        for _ in 0..<2_000 {
            switch random.next() % 12 {
            case 0: try? pages.setPage(Int(truncatingIfNeeded: random.next()) % 5, animated: random.next() % 2 == 0)
            case 1: try? pages.next()
            case 2: try? pages.previous()
            case 3: try? inbox.push(identifier: names[Int(random.next() % 6)], animated: random.next() % 2 == 0)
            case 4: inbox.pop(animated: random.next() % 2 == 0)
            case 5: inbox.popToRoot(animated: random.next() % 2 == 0)
            case 6: try? home.select(identifier: ["pages", "inbox", "dashboard", "nope"][Int(random.next() % 4)])
            case 7: try? home.setViewControllers(items.filter { _ in random.next() % 3 != 0 })
            case 8: home.toggleMenu()
            case 9: window.resize(to: Size(width: Double(random.next() % 2000) - 100, height: Double(random.next() % 2000)))
            case 10: try? home.decodeRestorableTree(home.encodeRestorableTree())
            default: clock.advance(by: .milliseconds(Int64(random.next() % 150)))
            }
        }
        clock.advance(by: .seconds(1))

        XCTAssertEqual(warnings.map(\.description).filter { !$0.hasPrefix("ignored window size") }, [], "seed \(seed)")
        XCTAssertGreaterThan(log.take().count, 500, "seed \(seed)")
        for container in [home, pages, inbox] as [Controller] where container.isViewLoaded {
            let current = container.currentChild.map { [$0] } ?? []
            XCTAssertTrue(container.installsExactly(current), "seed \(seed): \(container.identifier)")
        }
        XCTAssertTrue(inbox.children.elementsEqual(inbox.stack, by: ===))
        XCTAssertTrue(home.children.elementsEqual(home.viewControllers, by: ===))
        func checkAppearance(below container: Controller) {
            for child in container.children {
                let shown = container.appearance == .appeared && (child === container.currentChild || container is StackController)
                XCTAssertEqual(child.appearance, shown ? .appeared : .disappeared, "seed \(seed): \(child.path)")
                checkAppearance(below: child)
            }
        }
        checkAppearance(below: home)
    }
}
