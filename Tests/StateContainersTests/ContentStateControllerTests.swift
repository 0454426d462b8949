import AppStateCore
import StateContainers
import XCTest

final class ContentStateControllerTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .plain }

    /// An `activity` container on screen rendering `content`, its swaps taking `duration` on
    /// the test's clock, with the log cleared.
    private func showContainer(rendering content: Controller, duration: Duration = .zero) throws -> ContentStateController {
        let container = ContentStateController(identifier: "activity")
        container.transitionDuration = duration
        try container.transition(to: .render(content))
        showClearingLog(container)
        return container
    }

    func testViewLoad_whenNoStateSet_thenShowsLoading() async {
        let container = ContentStateController(identifier: "activity")
        XCTAssertNil(container.state)
        XCTAssertNil(container.shownController)

        container.loadViewIfNeeded()

        XCTAssertEqual(container.state, .loading)
        XCTAssertTrue(container.shownController is ContentStateController.LoadingController)
        XCTAssertEqual(container.currentChild?.identifier, "loading")
        XCTAssertTrue(container.shownController?.view.superview === container.view)
    }

    func testTransition_beforeViewLoads_thenAddsChildWithoutLoadingViews() async throws {
        let container = ContentStateController(identifier: "activity")
        let content = controller("feed")

        try container.transition(to: .render(content))

        XCTAssertFalse(container.isViewLoaded)
        XCTAssertFalse(content.isViewLoaded)
        XCTAssertTrue(content.parent === container)
        XCTAssertEqual(log.take(), ["feed.willMove(activity)"])

        container.loadViewIfNeeded()

        XCTAssertEqual(log.take(), ["feed.viewDidLoad", "feed.didMove(activity)"])
        XCTAssertTrue(content.view.superview === container.view)
        XCTAssertEqual(container.state, .render(content))
    }

    func testTransition_loadingThenFailedThenRender_thenSwapsTheShownChild() async throws {
        let container = ContentStateController(identifier: "activity")
        let window = show(container)
        let content = Controller(identifier: "feed")

        XCTAssertEqual(container.state, .loading)
        let loading = try XCTUnwrap(container.shownController)

        try container.transition(to: .failed("offline"))
        let error = try XCTUnwrap(container.shownController as? ContentStateController.ErrorController)
        XCTAssertEqual(error.identifier, "error")
        XCTAssertEqual(error.message, "offline")
        XCTAssertEqual(error.title, "offline")
        XCTAssertNil(loading.parent)
        XCTAssertEqual(loading.appearance, .disappeared)
        XCTAssertEqual(error.appearance, .appeared)

        try container.transition(to: .render(content))
        XCTAssertTrue(container.shownController === content)
        XCTAssertEqual(container.children.map(\.identifier), ["feed"])
        XCTAssertEqual(container.view.subviews.count, 1)
        XCTAssertEqual(content.appearance, .appeared)
        XCTAssertEqual(content.view.frame, window.bounds)
        XCTAssertNil(error.parent)
    }

    func testTransition_betweenTwoRenderedControllers_thenFollowsTheSwapTimeline() async throws {
        let container = try showContainer(rendering: controller("first"))
        let second = controller("second")

        try container.transition(to: .render(second))

        XCTAssertEqual(log.take(), log.swap(from: "first", to: "second", in: "activity"))
    }

    func testTransition_whenFailedAgain_thenUpdatesTheErrorChildInPlace() async throws {
        let container = ContentStateController(identifier: "activity")
        show(container)
        try container.transition(to: .failed("offline"))
        let error = try XCTUnwrap(container.shownController as? ContentStateController.ErrorController)

        try container.transition(to: .failed("timed out"))

        XCTAssertTrue(container.shownController === error)
        XCTAssertEqual(error.message, "timed out")
        XCTAssertEqual(error.title, "timed out")
        XCTAssertEqual(container.state, .failed("timed out"))
        XCTAssertEqual(error.appearance, .appeared)
    }

    func testTransition_whenLoadingAgain_thenKeepsTheLoadingChild() async throws {
        let container = ContentStateController(identifier: "activity")
        show(container)
        let loading = container.shownController

        try container.transition(to: .loading)

        XCTAssertTrue(container.shownController === loading)
        XCTAssertEqual(container.children.count, 1)
    }

    func testTransition_whenRenderingTheShownController_thenChangesNothing() async throws {
        let content = controller("feed")
        let container = try showContainer(rendering: content)

        try container.transition(to: .render(content))

        XCTAssertEqual(log.take(), [])
        XCTAssertTrue(container.shownController === content)
    }

    func testTransition_whenRenderingAnAncestor_thenThrowsCycleAndChangesNothing() async throws {
        let root = Controller(identifier: "root")
        let container = ContentStateController(identifier: "activity")
        try root.embed(container)
        try container.transition(to: .failed("offline"))
        let shown = container.shownController

        assertThrows(.cycle) { try container.transition(to: .render(root)) }
        assertThrows(.cycle) { try container.transition(to: .render(container)) }
        XCTAssertEqual(container.state, .failed("offline"))
        XCTAssertTrue(container.shownController === shown)
    }

    func testTransition_whenRenderingAControllerNamedLikeTheShownChild_thenThrowsDuplicateIdentifier() async throws {
        let container = ContentStateController(identifier: "activity")
        container.loadViewIfNeeded()

        assertThrows(.duplicateIdentifier) { try container.transition(to: .render(Controller(identifier: "loading"))) }
        assertThrows(.invalidArgument) { try container.transition(to: .render(Controller(identifier: ""))) }
        XCTAssertEqual(container.state, .loading)
        XCTAssertEqual(container.children.map(\.identifier), ["loading"])
    }

    func testTransition_withDuration_thenCompletesOnTheClockAndQueuesANewerState() async throws {
        let container = try showContainer(rendering: controller("first"), duration: .milliseconds(300))
        let second = controller("second")
        let third = controller("third")

        try container.transition(to: .render(second))
        try container.transition(to: .render(third))

        XCTAssertEqual(container.state, .render(third))
        XCTAssertTrue(container.shownController === second)
        XCTAssertEqual(log.take(), log.swapBeginning(from: "first", to: "second", in: "activity", animated: true))

        clock.advance(by: .milliseconds(300))

        XCTAssertEqual(
            log.take(),
            log.swapEnding(from: "first", to: "second", in: "activity", animated: true)
                + log.swapBeginning(from: "second", to: "third", in: "activity", animated: true)
        )
        XCTAssertTrue(container.shownController === third)

        clock.advance(by: .milliseconds(300))

        XCTAssertEqual(log.take(), log.swapEnding(from: "second", to: "third", in: "activity", animated: true))
        XCTAssertEqual(container.children.map(\.identifier), ["third"])
    }

    func testTransition_backToTheLeavingControllerDuringASwap_thenSwapsBackAfterwards() async throws {
        let first = Controller(identifier: "first")
        let container = try showContainer(rendering: first, duration: .milliseconds(100))
        let second = Controller(identifier: "second")

        try container.transition(to: .render(second))
        try container.transition(to: .render(first))
        clock.advance(by: .milliseconds(100))
        clock.advance(by: .milliseconds(100))

        XCTAssertTrue(container.shownController === first)
        XCTAssertEqual(container.children.map(\.identifier), ["first"])
        XCTAssertEqual(first.appearance, .appeared)
        XCTAssertEqual(second.appearance, .disappeared)
        XCTAssertNil(second.parent)
    }

    func testSnapshot_reportsTheStateName() async throws {
        let container = ContentStateController(identifier: "activity")
        XCTAssertNil(container.snapshot().contentState)
        show(container)
        XCTAssertEqual(container.snapshot().contentState, "loading")
        XCTAssertEqual(container.snapshot().current, "loading")

        try container.transition(to: .failed("offline"))
        let failed = container.snapshot()
        XCTAssertEqual(failed.contentState, "failed")
        XCTAssertEqual(failed.children.first?.title, "offline")

        try container.transition(to: .render(Controller(identifier: "feed")))
        XCTAssertEqual(container.snapshot().contentState, "render")
        XCTAssertEqual(container.snapshot().current, "feed")
    }

    func testResize_thenTheShownChildFollowsTheContainerBounds() async throws {
        let container = ContentStateController(identifier: "activity")
        let window = show(container)
        let content = Controller(identifier: "feed")
        try container.transition(to: .render(content))

        window.resize(to: Size(width: 800, height: 600))

        XCTAssertEqual(content.view.frame, Rect(x: 0, y: 0, width: 800, height: 600))
    }
}
