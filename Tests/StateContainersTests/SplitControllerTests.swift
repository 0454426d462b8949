import AppStateCore
import StateContainers
import XCTest

/// The split container: both children side by side when wide enough, the primary alone when not,
/// and between the two only appearance callbacks for the secondary, as UIKit's collapse sends:
/// both stay children, so no `willMove`/`didMove`.
final class SplitControllerTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .labelled }

    private let wide = Size(width: 1280, height: 800)
    private let narrow = Size(width: 600, height: 800)

    /// A split of `list` and `detail`, expanding from 700 points, the primary taking 0.4, with
    /// the log of its construction cleared.
    private func makeSplit(primary: Controller? = nil, secondary: Controller? = nil) throws -> SplitController {
        let split = try SplitController(
            identifier: "mail", primary: primary ?? controller("list"), secondary: secondary ?? controller("detail"),
            primaryFraction: 0.4, minimumExpandedWidth: 700
        )
        _ = log.take()
        return split
    }

    func testInit_thenBothAreChildrenWithTheirMovesAndNoViewIsLoaded() async throws {
        let split = try SplitController(identifier: "mail", primary: controller("list"), secondary: controller("detail"))

        XCTAssertEqual(
            log.take(),
            [
                "list.willMove(toParent: mail)", "list.didMove(toParent: mail)",
                "detail.willMove(toParent: mail)", "detail.didMove(toParent: mail)",
            ])
        XCTAssertEqual(split.children.map(\.identifier), ["list", "detail"])
        XCTAssertEqual(split.primaryFraction, SplitController.defaultPrimaryFraction)
        XCTAssertEqual(split.minimumExpandedWidth, SplitController.defaultMinimumExpandedWidth)
        XCTAssertTrue(split.isCollapsed)
        XCTAssertFalse(split.isViewLoaded)
        XCTAssertEqual(split.descendant(at: "detail")?.path, "mail/detail")
    }

    func testInit_whenFractionWidthOrChildrenInvalid_thenThrowsAndAdoptsNothing() async throws {
        let list = controller("list")
        for fraction in [0, 1, -0.5, .nan] {
            assertThrows(.invalidArgument) {
                try SplitController(identifier: "mail", primary: list, secondary: controller("d"), primaryFraction: fraction)
            }
        }
        for width in [-1, .infinity] {
            assertThrows(.invalidArgument) {
                try SplitController(identifier: "mail", primary: list, secondary: controller("d"), minimumExpandedWidth: width)
            }
        }
        assertThrows(.duplicateIdentifier) { try SplitController(identifier: "mail", primary: list, secondary: list) }
        assertThrows(.invalidArgument) { try SplitController(identifier: "mail", primary: list, secondary: controller("a/b")) }
        let error = assertThrows(.invalidArgument) {
            try SplitController(identifier: "mail", primary: list, secondary: controller("d"), primaryFraction: 1.5)
        }

        XCTAssertEqual(error?.description, "mail: primary fraction must be a number above 0 and below 1 (got 1.5)")
        XCTAssertNil(list.parent)
        XCTAssertEqual(log.take(), [])
    }

    func testAppear_whenWide_thenBothColumnsSideBySideAppearPrimaryFirst() async throws {
        let split = try makeSplit()

        show(split, size: wide)

        XCTAssertEqual(
            log.take(),
            [
                "list.viewDidLoad", "detail.viewDidLoad",
                "list.viewWillAppear(false)", "detail.viewWillAppear(false)",
                "list.viewDidAppear(false)", "detail.viewDidAppear(false)",
            ])
        XCTAssertFalse(split.isCollapsed)
        XCTAssertNil(split.currentChild)
        XCTAssertTrue(split.installsExactly([split.primary, split.secondary]))
        XCTAssertEqual(split.primary.view.frame, Rect(x: 0, y: 0, width: 512, height: 800))
        XCTAssertEqual(split.secondary.view.frame, Rect(x: 512, y: 0, width: 768, height: 800))
    }

    func testAppear_whenNarrow_thenOnlyThePrimaryIsLoadedInstalledAndCurrent() async throws {
        let split = try makeSplit()

        show(split, size: narrow)

        XCTAssertEqual(log.take(), ["list.viewDidLoad", "list.viewWillAppear(false)", "list.viewDidAppear(false)"])
        XCTAssertTrue(split.isCollapsed)
        XCTAssertTrue(split.currentChild === split.primary)
        XCTAssertTrue(split.installsExactly([split.primary]))
        XCTAssertEqual(split.primary.view.frame, Rect(x: 0, y: 0, width: 600, height: 800))
        XCTAssertFalse(split.secondary.isViewLoaded)
    }

    func testResize_whenNarrowed_thenThePrimaryIsToldItsSizeAndTheSecondaryDisappearsWithoutLeaving() async throws {
        let split = try makeSplit()
        let window = show(split, size: wide)
        _ = log.take()

        window.resize(to: narrow)

        XCTAssertEqual(
            log.take(),
            [
                "list.viewWillTransition(to: 600x800)",
                "detail.viewWillDisappear(false)", "detail.viewDidDisappear(false)",
            ])
        XCTAssertTrue(split.isCollapsed)
        XCTAssertTrue(split.secondary.parent === split)
        XCTAssertEqual(split.secondary.appearance, .disappeared)
        XCTAssertTrue(split.installsExactly([split.primary]))
        XCTAssertEqual(split.primary.view.frame, Rect(x: 0, y: 0, width: 600, height: 800))
        XCTAssertEqual((split.secondary as? LoggingController)?.movements.suffix(2), ["viewWillDisappear: -", "viewDidDisappear: -"])
    }

    func testResize_whenWidenedAgain_thenEachColumnWhoseSizeChangesIsToldAndTheSecondaryReappears() async throws {
        let split = try makeSplit()
        let window = show(split, size: wide)
        window.resize(to: narrow)
        _ = log.take()

        window.resize(to: Size(width: 1000, height: 800))

        XCTAssertEqual(
            log.take(),
            [
                "list.viewWillTransition(to: 400x800)", "detail.viewWillTransition(to: 600x800)",
                "detail.viewWillAppear(false)", "detail.viewDidAppear(false)",
            ])
        XCTAssertFalse(split.isCollapsed)
        XCTAssertTrue(split.installsExactly([split.primary, split.secondary]))
        XCTAssertEqual(split.secondary.view.frame, Rect(x: 400, y: 0, width: 600, height: 800))
    }

    func testResize_whenTheSecondaryComesBackAtTheSizeItLeftWith_thenItIsNotTold() async throws {
        let split = try makeSplit()
        let window = show(split, size: wide)
        window.resize(to: narrow)
        _ = log.take()

        window.resize(to: wide)

        XCTAssertEqual(log.take(), ["list.viewWillTransition(to: 512x800)", "detail.viewWillAppear(false)", "detail.viewDidAppear(false)"])
    }

    func testResize_whenStillWideOrStillNarrow_thenOnlySizesAreTold() async throws {
        let split = try makeSplit()
        let window = show(split, size: wide)
        _ = log.take()

        window.resize(to: Size(width: 1280, height: 600))
        window.resize(to: Size(width: 700, height: 600))
        XCTAssertEqual(
            log.take(),
            [
                "list.viewWillTransition(to: 512x600)", "detail.viewWillTransition(to: 768x600)",
                "list.viewWillTransition(to: 280x600)", "detail.viewWillTransition(to: 420x600)",
            ])
        window.resize(to: Size(width: 699, height: 600))
        _ = log.take()
        window.resize(to: Size(width: 500, height: 600))

        XCTAssertEqual(log.take(), ["list.viewWillTransition(to: 500x600)"])
        XCTAssertTrue(split.isCollapsed)
    }

    func testResize_whenOffScreen_thenCollapsesWithoutAppearanceCallbacks() async throws {
        let split = try makeSplit()
        let window = hiddenWindow(root: split, size: wide)

        window.resize(to: narrow)

        XCTAssertEqual(log.take(), ["list.viewWillTransition(to: 600x800)"])
        XCTAssertTrue(split.isCollapsed)
        XCTAssertNil(split.secondary.view.superview)
        window.makeVisible()
        XCTAssertEqual(log.take(), ["list.viewWillAppear(false)", "list.viewDidAppear(false)"])
    }

    func testCollapse_whileTheSplitIsAppearingInAnAnimatedSwap_thenTheSecondaryIsCancelledAsUIKitCancels() async throws {
        let split = try makeSplit()
        let pages = try PaginatedController(identifier: "pages", pages: [controller("home"), split])
        pages.transitionDuration = .milliseconds(300)
        let window = show(pages, size: wide)
        try pages.setPage(1, animated: true)
        _ = log.take()

        window.resize(to: narrow)
        XCTAssertEqual(
            log.take(),
            [
                "home.viewWillTransition(to: 600x800)", "list.viewWillTransition(to: 600x800)", "detail.viewWillDisappear(true)",
            ])
        clock.advance(by: .milliseconds(300))

        XCTAssertEqual(log.take(), ["home.viewDidDisappear(true)", "list.viewDidAppear(true)", "detail.viewDidDisappear(true)"])
        XCTAssertEqual(split.appearance, .appeared)
        XCTAssertEqual(split.primary.appearance, .appeared)
        XCTAssertEqual(split.secondary.appearance, .disappeared)
        XCTAssertTrue(split.installsExactly([split.primary]))
    }

    func testSnapshot_thenSaysWhetherCollapsedAndWhichChildIsCurrent() async throws {
        let split = try makeSplit()
        let window = show(split, size: wide)

        let expanded = split.snapshot()
        window.resize(to: narrow)
        let collapsed = split.snapshot()

        assertSnapshot(expanded, type: "SplitController", current: nil, childPaths: ["mail/list", "mail/detail"])
        XCTAssertEqual(expanded.collapsed, false)
        XCTAssertEqual(expanded.children.map(\.frame), [Rect(x: 0, y: 0, width: 512, height: 800), Rect(x: 512, y: 0, width: 768, height: 800)])
        assertSnapshot(collapsed, type: "SplitController", current: "list", childPaths: ["mail/list", "mail/detail"])
        XCTAssertEqual(collapsed.collapsed, true)
        XCTAssertEqual(collapsed.children.map(\.onScreen), [true, false])
        XCTAssertEqual(split.deepestCurrent.path, "mail/list")
    }

    func testRestoration_thenTheSplitSavesNothingAndItsChildrenTheirOwnStateEvenWhileHidden() async throws {
        let pages = try PaginatedController(identifier: "pages", pages: [controller("first"), controller("second")])
        let split = try makeSplit(secondary: pages)
        split.restorationIdentifier = "mail"
        pages.restorationIdentifier = "pages"
        show(split, size: narrow)
        try pages.setPage(1, animated: false)
        let document = split.encodeRestorableTree()
        _ = log.take()

        let restored = try makeSplit(secondary: try PaginatedController(identifier: "pages", pages: [controller("first"), controller("second")]))
        restored.restorationIdentifier = "mail"
        restored.secondary.restorationIdentifier = "pages"
        try restored.decodeRestorableTree(document)

        XCTAssertEqual(Set(document.controllers.keys), ["mail/pages"])
        XCTAssertEqual((restored.secondary as? PaginatedController)?.currentIndex, 1)
        XCTAssertEqual(log.take(), [])
    }
}
