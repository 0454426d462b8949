import AppStateCore
import StateContainers
import XCTest

/// Modal presentation's callbacks: `present(_:animated:completion:)` and
/// `dismiss(animated:completion:)` with both styles, animated and not, nested, interrupted,
/// and across a size change, on a ManualClock. The `.movement` spelling pins
/// `isMovingToParent` and `isMovingFromParent` to false throughout: presentation is not containment.
final class PresentationTests: ModelTestCase {
    /// `root`, showing its child `child`, on screen in a 1280×800 window, and `modal`, not yet
    /// presented, with the log cleared.
    private func makePresentation(
        style: ModalPresentationStyle = .fullScreen, duration: Duration = .zero
    ) throws -> (window: Window, root: LoggingController, child: LoggingController, modal: LoggingController) {
        let (root, child) = try embedded("child", in: "root")
        let window = showClearingLog(root)
        let modal = controller("modal")
        modal.modalPresentationStyle = style
        modal.modalTransitionDuration = duration
        return (window, root, child, modal)
    }

    /// A completion that logs `name`.
    private func completion(_ name: String) -> () -> Void {
        { [log] in log.append(name) }
    }

    // MARK: Presenting

    func testPresent_whenFullScreenAndNotAnimated_thenThePresentingSideDisappearsAndThePresentedAppears() async throws {
        let (_, root, child, modal) = try makePresentation()

        try root.present(modal, animated: false, completion: completion("completion"))
        log.append("present returned")

        XCTAssertEqual(
            log.take(),
            [
                "modal.viewDidLoad",
                "root.viewWillDisappear(false)", "child.viewWillDisappear(false)",
                "modal.viewWillAppear(false)",
                "root.viewDidDisappear(false)", "child.viewDidDisappear(false)",
                "modal.viewDidAppear(false)",
                "completion",
                "present returned",
            ])
        XCTAssertTrue(root.presentedViewController === modal)
        XCTAssertTrue(child.presentedViewController === modal, "a child reads its presentation context's")
        XCTAssertTrue(modal.presentingViewController === root)
        XCTAssertNil(root.presentingViewController)
        XCTAssertNil(modal.parent)
        XCTAssertEqual([root.appearance, child.appearance, modal.appearance], [.disappeared, .disappeared, .appeared])
        XCTAssertFalse(root.view.isOnScreen)
        XCTAssertTrue(modal.view.isOnScreen)
        XCTAssertEqual(modal.view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
        XCTAssertEqual(warnings, [])
    }

    func testPresent_whenFullScreenAndAnimated_thenFollowsTheSwapTimelineOnTheClock() async throws {
        let (_, root, _, modal) = try makePresentation(duration: .milliseconds(300))

        try root.present(modal, animated: true, completion: completion("completion"))

        let start = [
            "modal.viewDidLoad",
            "root.viewWillDisappear(true)", "child.viewWillDisappear(true)",
            "modal.viewWillAppear(true)",
        ]
        XCTAssertEqual(log.entries, start)
        XCTAssertEqual([root.appearance, modal.appearance], [.disappearing, .appearing])
        XCTAssertTrue(root.view.isOnScreen && modal.view.isOnScreen, "both views are on screen during the transition")
        XCTAssertTrue(root.presentedViewController === modal)

        clock.advance(by: .milliseconds(299))
        XCTAssertEqual(log.entries, start, "nothing of step 5 before the duration has passed")

        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(
            log.take(),
            start + [
                "root.viewDidDisappear(true)", "child.viewDidDisappear(true)",
                "modal.viewDidAppear(true)",
                "completion",
            ])
        XCTAssertFalse(root.view.isOnScreen)
        XCTAssertEqual(warnings, [])
    }

    func testPresent_whenOverFullScreenAndNotAnimated_thenThePresentingSideStaysOnScreenWithoutCallbacks() async throws {
        let (_, root, child, modal) = try makePresentation(style: .overFullScreen)

        try root.present(modal, animated: false, completion: completion("completion"))

        XCTAssertEqual(log.take(), ["modal.viewDidLoad", "modal.viewWillAppear(false)", "modal.viewDidAppear(false)", "completion"])
        XCTAssertEqual([root.appearance, child.appearance, modal.appearance], [.appeared, .appeared, .appeared])
        XCTAssertTrue(root.view.isOnScreen && child.view.isOnScreen && modal.view.isOnScreen)
    }

    func testPresent_whenOverFullScreenAndAnimated_thenOnlyThePresentedControllerWaitsForTheClock() async throws {
        let (_, root, _, modal) = try makePresentation(style: .overFullScreen, duration: .milliseconds(250))

        try root.present(modal, animated: true, completion: completion("completion"))
        XCTAssertEqual(log.take(), ["modal.viewDidLoad", "modal.viewWillAppear(true)"])

        clock.advance(by: .milliseconds(250))
        XCTAssertEqual(log.take(), ["modal.viewDidAppear(true)", "completion"])
        XCTAssertEqual(root.appearance, .appeared)
    }

    func testPresent_whenAnimatedWithNoDuration_thenCompletesBeforeReturningAsNotAnimated() async throws {
        let (_, root, _, modal) = try makePresentation(style: .overFullScreen)

        try root.present(modal, animated: true)

        XCTAssertEqual(log.take(), ["modal.viewDidLoad", "modal.viewWillAppear(false)", "modal.viewDidAppear(false)"])
    }

    func testPresent_fromAChild_thenTheRootPresents() async throws {
        let (_, root, child, modal) = try makePresentation()

        try child.present(modal, animated: false)

        XCTAssertTrue(root.presentedViewController === modal)
        XCTAssertTrue(modal.presentingViewController === root, "the root's presentation context carries it out")
        XCTAssertEqual(modal.path, "root/modal")
        XCTAssertEqual(log.take().filter { $0.hasPrefix("root.") }, ["root.viewWillDisappear(false)", "root.viewDidDisappear(false)"])
    }

    func testPresent_whenAlreadyPresenting_thenThrowsAndChangesNothing() async throws {
        let (_, root, child, modal) = try makePresentation()
        try root.present(modal, animated: false)
        log.removeAll()

        assertThrows(.alreadyPresenting) { try child.present(self.controller("other"), animated: false) }

        XCTAssertEqual(log.entries, [])
        XCTAssertTrue(root.presentedViewController === modal)
    }

    func testPresent_whenTheWindowIsNotVisible_thenInstallsTheViewsWithoutCallbacks() async throws {
        let (root, _) = try embedded("child", in: "root")
        let window = hiddenWindow(root: root)
        let modal = controller("modal")

        try root.present(modal, animated: true, completion: completion("completion"))
        XCTAssertEqual(log.take(), ["modal.viewDidLoad", "completion"])
        XCTAssertTrue(modal.view.window === window)
        XCTAssertNil(root.view.window, "the full-screen presentation took the root's view out")

        window.makeVisible()
        XCTAssertEqual(log.take(), ["modal.viewWillAppear(false)", "modal.viewDidAppear(false)"])
    }

    func testPresent_whenTheTreeIsInNoWindow_thenLoadsNoViewAndTheWindowInstallsThemLater() async throws {
        let (root, child) = try embedded("child", in: "root")
        let modal = controller("modal")

        try root.present(modal, animated: true, completion: completion("completion"))
        XCTAssertEqual(log.take(), ["completion"])
        XCTAssertFalse(modal.isViewLoaded)

        show(root)
        XCTAssertEqual(log.take(), ["modal.viewDidLoad", "modal.viewWillAppear(false)", "modal.viewDidAppear(false)"])
        XCTAssertEqual([root.appearance, child.appearance], [.disappeared, .disappeared])
        XCTAssertTrue(modal.view.isOnScreen)
    }

    func testPresent_whenOverFullScreenInNoWindow_thenBothAppearWhenShown() async throws {
        let root = controller("root")
        let modal = controller("modal")
        modal.modalPresentationStyle = .overFullScreen
        try root.present(modal, animated: false)

        show(root)

        XCTAssertEqual(
            log.take(),
            [
                "root.viewDidLoad", "modal.viewDidLoad",
                "root.viewWillAppear(false)", "root.viewDidAppear(false)",
                "modal.viewWillAppear(false)", "modal.viewDidAppear(false)",
            ])
    }

    // MARK: Dismissing

    func testDismiss_whenFullScreenAndNotAnimated_thenReversesThePresentation() async throws {
        let (_, root, child, modal) = try makePresentation()
        try root.present(modal, animated: false)
        log.removeAll()

        let dismissed = root.dismiss(animated: false, completion: completion("completion"))

        XCTAssertTrue(dismissed)
        XCTAssertEqual(
            log.take(),
            [
                "modal.viewWillDisappear(false)",
                "root.viewWillAppear(false)", "child.viewWillAppear(false)",
                "modal.viewDidDisappear(false)",
                "root.viewDidAppear(false)", "child.viewDidAppear(false)",
                "completion",
            ])
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(modal.presentingViewController)
        XCTAssertNil(modal.window)
        XCTAssertFalse(modal.view.isOnScreen)
        XCTAssertTrue(root.view.isOnScreen && child.view.isOnScreen)
        XCTAssertEqual(warnings, [])
    }

    func testDismiss_whenFullScreenAndAnimated_thenTheReturningSideAppearsWhenTheClockPasses() async throws {
        let (_, root, _, modal) = try makePresentation(duration: .milliseconds(300))
        try root.present(modal, animated: false)
        log.removeAll()

        modal.dismiss(animated: true, completion: completion("completion"))

        let start = ["modal.viewWillDisappear(true)", "root.viewWillAppear(true)", "child.viewWillAppear(true)"]
        XCTAssertEqual(log.entries, start, "the presented controller asks its presenting controller to dismiss it")
        XCTAssertTrue(root.presentedViewController === modal, "presented until the dismissal finishes")
        XCTAssertTrue(root.view.isOnScreen)

        clock.advance(by: .milliseconds(300))
        XCTAssertEqual(
            log.take(),
            start + ["modal.viewDidDisappear(true)", "root.viewDidAppear(true)", "child.viewDidAppear(true)", "completion"])
        XCTAssertNil(root.presentedViewController)
    }

    func testDismiss_whenOverFullScreen_thenOnlyThePresentedControllerDisappears() async throws {
        let (_, root, child, modal) = try makePresentation(style: .overFullScreen)
        try root.present(modal, animated: false)
        log.removeAll()

        child.dismiss(animated: false)

        XCTAssertEqual(log.take(), ["modal.viewWillDisappear(false)", "modal.viewDidDisappear(false)"])
        XCTAssertEqual([root.appearance, modal.appearance], [.appeared, .disappeared])
    }

    func testDismiss_whenNothingIsPresented_thenChangesNothingAndReturnsFalse() async throws {
        let (_, root, child, _) = try makePresentation()

        XCTAssertFalse(root.dismiss(animated: true, completion: completion("completion")))
        XCTAssertFalse(child.dismiss(animated: false))

        XCTAssertEqual(log.entries, [], "no callback, and no completion")
    }

    func testDismiss_inTheMiddleOfThePresentation_thenStartsWhenThePresentationFinishes() async throws {
        let (_, root, _, modal) = try makePresentation(duration: .milliseconds(300))
        try root.present(modal, animated: true, completion: completion("presented"))
        clock.advance(by: .milliseconds(100))
        log.removeAll()

        let dismissed = root.dismiss(animated: true, completion: completion("dismissed"))

        XCTAssertTrue(dismissed)
        XCTAssertEqual(log.entries, [], "the presentation's own transition runs to its end first")
        clock.advance(by: .milliseconds(200))
        XCTAssertEqual(
            log.take(),
            [
                "root.viewDidDisappear(true)", "child.viewDidDisappear(true)", "modal.viewDidAppear(true)", "presented",
                "modal.viewWillDisappear(true)", "root.viewWillAppear(true)", "child.viewWillAppear(true)",
            ])
        XCTAssertFalse(root.dismiss(animated: true, completion: completion("dismissed again")), "its dismissal is running")

        clock.advance(by: .milliseconds(300))
        XCTAssertEqual(
            log.take(),
            ["modal.viewDidDisappear(true)", "root.viewDidAppear(true)", "child.viewDidAppear(true)", "dismissed", "dismissed again"])
        XCTAssertNil(root.presentedViewController)
        XCTAssertEqual(warnings, [])
    }

    func testPresent_inTheMiddleOfADismissal_thenThrowsTransitionInProgress() async throws {
        let (_, root, _, modal) = try makePresentation(duration: .milliseconds(300))
        try root.present(modal, animated: false)
        root.dismiss(animated: true)
        log.removeAll()

        assertThrows(.transitionInProgress) { try root.present(self.controller("other"), animated: false) }

        clock.advance(by: .milliseconds(300))
        try root.present(controller("other"), animated: false)
        XCTAssertEqual(root.presentedViewController?.identifier, "other")
    }

    func testDismiss_whenASwapRunsInThePresentedTree_thenWaitsForItToFinish() async throws {
        let (_, root, _, _) = try makePresentation()
        let navigation = try NavigationController(identifier: "modal", root: controller("list"))
        navigation.transitionDuration = .milliseconds(200)
        try root.present(navigation, animated: false)
        try navigation.push(controller("detail"), animated: true)
        log.removeAll()

        XCTAssertTrue(root.dismiss(animated: false, completion: completion("dismissed")))
        XCTAssertEqual(log.entries, [], "the push's appearance callbacks must not interleave with the dismissal's")

        clock.advance(by: .milliseconds(200))
        XCTAssertEqual(
            log.take(),
            [
                "list.viewDidDisappear(true)", "detail.viewDidAppear(true) movingTo=true", "detail.didMove(modal)",
                "detail.viewWillDisappear(false)", "root.viewWillAppear(false)", "child.viewWillAppear(false)",
                "detail.viewDidDisappear(false)", "root.viewDidAppear(false)", "child.viewDidAppear(false)",
                "dismissed",
            ])
        XCTAssertEqual(warnings, [])
    }

    // MARK: Nested presentations

    func testPresent_fromAPresentedController_thenItPresentsAndLeavesTheScreen() async throws {
        let (_, root, _, modal) = try makePresentation()
        try root.present(modal, animated: false)
        let inner = controller("inner")
        try modal.embed(inner)
        let sheet = controller("sheet")
        log.removeAll()

        try inner.present(sheet, animated: false)

        XCTAssertEqual(
            log.take(),
            [
                "sheet.viewDidLoad",
                "modal.viewWillDisappear(false)", "inner.viewWillDisappear(false)",
                "sheet.viewWillAppear(false)",
                "modal.viewDidDisappear(false)", "inner.viewDidDisappear(false)",
                "sheet.viewDidAppear(false)",
            ])
        XCTAssertTrue(sheet.presentingViewController === modal)
        XCTAssertTrue(inner.presentingViewController === root, "what presented the presented controller it belongs to")
        XCTAssertTrue(root.presentedViewController === modal)
        XCTAssertTrue(modal.presentedViewController === sheet)
        XCTAssertEqual(sheet.path, "root/modal/sheet")
        XCTAssertTrue(root.deepestCurrent === sheet)
    }

    func testDismiss_ofAPresentationUnderAnother_thenBothGoAndOnlyTheVisibleOneDisappears() async throws {
        let (_, root, _, modal) = try makePresentation()
        let sheet = controller("sheet")
        try root.present(modal, animated: false)
        try modal.present(sheet, animated: false)
        log.removeAll()

        root.dismiss(animated: false, completion: completion("completion"))

        XCTAssertEqual(
            log.take(),
            [
                "sheet.viewWillDisappear(false)",
                "root.viewWillAppear(false)", "child.viewWillAppear(false)",
                "sheet.viewDidDisappear(false)",
                "root.viewDidAppear(false)", "child.viewDidAppear(false)",
                "completion",
            ])
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(modal.presentedViewController)
        XCTAssertNil(sheet.presentingViewController)
        XCTAssertEqual(warnings, [])
    }

    func testDismiss_fromTheTopPresentation_thenOnlyItGoesAndItsPresenterReturns() async throws {
        let (_, root, _, modal) = try makePresentation()
        let sheet = controller("sheet")
        sheet.modalPresentationStyle = .overFullScreen
        try root.present(modal, animated: false)
        try modal.present(sheet, animated: false)
        log.removeAll()

        sheet.dismiss(animated: false)

        XCTAssertEqual(log.take(), ["sheet.viewWillDisappear(false)", "sheet.viewDidDisappear(false)"])
        XCTAssertTrue(root.presentedViewController === modal)
        XCTAssertNil(modal.presentedViewController)
        XCTAssertEqual(modal.appearance, .appeared)
    }

    // MARK: Size changes and windows

    func testResize_whilePresenting_thenThePresentedControllerIsToldAndFillsTheWindow() async throws {
        let (window, root, _, modal) = try makePresentation()
        root.layoutChildrenToFill = true
        try root.present(modal, animated: false)
        log.removeAll()

        window.resize(to: Size(width: 800, height: 1280))

        XCTAssertEqual(
            log.take(),
            ["root.viewWillTransition(800x1280)", "child.viewWillTransition(800x1280)", "modal.viewWillTransition(800x1280)"])
        XCTAssertEqual(modal.view.frame, Rect(x: 0, y: 0, width: 800, height: 1280))
        XCTAssertEqual(root.view.frame, Rect(x: 0, y: 0, width: 800, height: 1280))
        XCTAssertTrue(root.presentedViewController === modal, "a size change keeps the presentation")
        XCTAssertTrue(modal.view.isOnScreen)
    }

    func testRootController_whenReplacedWhilePresenting_thenThePresentedControllerLeavesTheScreenToo() async throws {
        let (window, root, _, modal) = try makePresentation(style: .overFullScreen)
        try root.present(modal, animated: false)
        log.removeAll()

        window.rootController = nil

        XCTAssertEqual(
            log.take(),
            [
                "root.viewWillDisappear(false)", "child.viewWillDisappear(false)",
                "root.viewDidDisappear(false)", "child.viewDidDisappear(false)",
                "modal.viewWillDisappear(false)", "modal.viewDidDisappear(false)",
            ])
        XCTAssertNil(modal.window)
        XCTAssertTrue(root.presentedViewController === modal, "the presentation stays with its tree")
    }

    func testRootController_whenSetToAPresentedController_thenKeepsTheOldRootWithAWarning() async throws {
        let (window, root, _, modal) = try makePresentation()
        try root.present(modal, animated: false)

        window.rootController = modal

        XCTAssertTrue(window.rootController === root)
        XCTAssertEqual(warnings.map(\.identifier), ["modal"])
    }

    func testWindow_ofAPresentedController_thenIsThePresentersUntilDismissed() async throws {
        let (window, root, _, _) = try makePresentation()
        let keyboard = try KeyboardAwareController(identifier: "modal", content: controller("form"))

        try root.present(keyboard, animated: false)
        XCTAssertTrue(keyboard.window === window)
        XCTAssertTrue(keyboard.bus === window.bus, "a presented container observes the window's bus")

        root.dismiss(animated: false)
        XCTAssertNil(keyboard.window)
    }
}
