import AppStateCore
import Foundation
import StateContainers
import XCTest

final class NavigationControllerTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .labelled }

    /// A restorable stack rooted at `messages` whose destinations are recorded controllers.
    private func makeNavigation() throws -> NavigationController {
        let navigation = try NavigationController(identifier: "inbox", root: controller("messages"))
        navigation.restorationIdentifier = "inbox"
        navigation.makeDestination = { [log] identifier in
            identifier.hasPrefix("unknown") ? nil : LoggingController(identifier, log: log)
        }
        _ = log.take()
        return navigation
    }

    func testInit_thenTheRootIsTheWholeStackAndOnScreen() async throws {
        let navigation = try makeNavigation()

        show(navigation)

        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages"])
        XCTAssertTrue(navigation.top === navigation.root)
        XCTAssertTrue(navigation.currentChild === navigation.root)
        XCTAssertEqual(log.take(), ["messages.viewDidLoad", "messages.viewWillAppear(false)", "messages.viewDidAppear(false)"])
        XCTAssertEqual(navigation.root.view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
    }

    func testInit_whenTheRootIdentifierIsInvalid_thenThrowsInvalidArgument() async {
        assertThrows(.invalidArgument) { try NavigationController(identifier: "inbox", root: Controller(identifier: "a/b")) }
    }

    func testPush_whenNotAnimated_thenFollowsTheSwapTimelineSynchronously() async throws {
        let navigation = try makeNavigation()
        showClearingLog(navigation)
        let thread = controller("thread")

        try navigation.push(thread, animated: false)

        XCTAssertEqual(log.take(), log.swap(from: "messages", to: "thread", in: "inbox", oldLeaves: false))
        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages", "thread"])
        XCTAssertEqual(navigation.children.map(\.identifier), ["messages", "thread"])
        XCTAssertTrue(navigation.top === thread)
        XCTAssertTrue(navigation.installsExactly([thread]))
        XCTAssertEqual(thread.view.frame, navigation.view.bounds)
    }

    func testPushAndPop_thenTheMovingScreenSeesItselfMovingToAndFromTheStack() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        let thread = controller("thread")
        let root = try XCTUnwrap(navigation.root as? LoggingController)

        try navigation.push(thread, animated: false)
        navigation.pop(animated: false)

        XCTAssertEqual(
            thread.movements,
            [
                "viewWillAppear: toParent", "viewDidAppear: toParent",
                "viewWillDisappear: fromParent", "viewDidDisappear: fromParent",
            ])
        XCTAssertEqual(root.movements.dropFirst(2), ["viewWillDisappear: -", "viewDidDisappear: -", "viewWillAppear: -", "viewDidAppear: -"])
    }

    func testPush_whenAnimated_thenDidMoveWaitsForTheClock() async throws {
        let navigation = try makeNavigation()
        navigation.transitionDuration = .milliseconds(350)
        showClearingLog(navigation)

        try navigation.push(identifier: "thread", animated: true)

        XCTAssertEqual(log.take(), log.swapBeginning(from: "messages", to: "thread", in: "inbox", animated: true, oldLeaves: false))
        XCTAssertEqual(navigation.top.identifier, "thread")
        clock.advance(by: .milliseconds(350))
        XCTAssertEqual(log.take(), log.swapEnding(from: "messages", to: "thread", in: "inbox", animated: true, oldLeaves: false))
    }

    func testPush_whenTheIdentifierIsAlreadyInTheStack_thenThrowsDuplicateIdentifierAndChangesNothing() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        let thread = controller("thread")
        try navigation.push(thread, animated: false)
        _ = log.take()

        for duplicate in [thread, controller("thread"), controller("messages")] {
            assertThrows(.duplicateIdentifier) { try navigation.push(duplicate, animated: false) }
        }
        assertThrows(.cycle) { try navigation.push(navigation, animated: false) }
        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages", "thread"])
        XCTAssertEqual(log.take(), [])
    }

    func testPushIdentifier_whenTheFactoryMakesNothing_thenThrowsNoSuchChild() async throws {
        let navigation = try makeNavigation()

        assertThrows(.noSuchChild) { try navigation.push(identifier: "unknown-screen", animated: false) }
        navigation.makeDestination = nil
        assertThrows(.noSuchChild) { try navigation.push(identifier: "thread", animated: false) }
        XCTAssertEqual(navigation.stack.count, 1)
        XCTAssertEqual(log.take(), [])
    }

    func testPushAndPop_whenATransitionIsInFlight_thenRefuseAndChangeNothing() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        navigation.transitionDuration = .seconds(1)
        try navigation.push(identifier: "thread", animated: true)
        _ = log.take()

        assertThrows(.transitionInProgress) { try navigation.push(identifier: "attachment", animated: false) }
        XCTAssertNil(navigation.pop(animated: false))
        XCTAssertTrue(navigation.popToRoot(animated: false).isEmpty)
        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages", "thread"])
        XCTAssertEqual(log.take(), [])

        clock.advance(by: .seconds(1))
        XCTAssertEqual(navigation.pop(animated: false)?.identifier, "thread")
    }

    func testPop_thenFollowsTheRemovalTimelineAndReturnsTheOldTop() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        try navigation.push(identifier: "thread", animated: false)
        _ = log.take()

        let popped = navigation.pop(animated: false)

        XCTAssertEqual(popped?.identifier, "thread")
        XCTAssertEqual(log.take(), log.swap(from: "thread", to: "messages", in: "inbox", newJoins: false, loadingView: false))
        XCTAssertNil(popped?.parent)
        XCTAssertEqual(navigation.children.map(\.identifier), ["messages"])
        XCTAssertTrue(navigation.installsExactly([navigation.root]))
    }

    func testPop_whenAnimated_thenTheOldTopStaysAChildUntilTheSwapFinishes() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        try navigation.push(identifier: "thread", animated: false)
        navigation.transitionDuration = .seconds(1)
        _ = log.take()

        let popped = navigation.pop(animated: true)

        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages"])
        XCTAssertEqual(navigation.children.map(\.identifier), ["messages", "thread"])
        XCTAssertEqual(navigation.snapshot().current, "messages")
        XCTAssertEqual(log.take(), ["thread.willMove(toParent: nil)", "thread.viewWillDisappear(true)", "messages.viewWillAppear(true)"])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.take(), ["thread.viewDidDisappear(true)", "messages.viewDidAppear(true)", "thread.didMove(toParent: nil)"])
        XCTAssertNil(popped?.parent)
    }

    func testPop_whenOnlyTheRootIsLeft_thenReturnsNilAndNeverPopsTheRoot() async throws {
        let navigation = try makeNavigation()
        showClearingLog(navigation)

        XCTAssertNil(navigation.pop(animated: true))
        XCTAssertTrue(navigation.popToRoot(animated: true).isEmpty)

        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages"])
        XCTAssertTrue(navigation.root.parent === navigation)
        XCTAssertEqual(log.take(), [])
    }

    func testPop_whenAnotherContainerTookTheTop_thenShowsTheRootAndLeavesTheScreenThere() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        try navigation.push(identifier: "thread", animated: false)
        let thread = navigation.top
        let thief = Controller(identifier: "thief")
        try thief.embed(thread)
        _ = log.take()

        XCTAssertTrue(navigation.pop(animated: false) === thread)

        XCTAssertTrue(thread.parent === thief)
        XCTAssertEqual(log.take(), ["messages.viewWillAppear(false)", "messages.viewDidAppear(false)"])
        XCTAssertTrue(navigation.installsExactly([navigation.root]))
    }

    func testPopToRoot_thenRemovesTheHiddenScreensAtOnceAndSwapsFromTheTop() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        for identifier in ["thread", "message", "attachment"] { try navigation.push(identifier: identifier, animated: false) }
        _ = log.take()

        let popped = navigation.popToRoot(animated: false)

        XCTAssertEqual(popped.map(\.identifier), ["thread", "message", "attachment"])
        XCTAssertEqual(
            log.take(),
            [
                "message.willMove(toParent: nil)", "message.didMove(toParent: nil)",
                "thread.willMove(toParent: nil)", "thread.didMove(toParent: nil)",
            ] + log.swap(from: "attachment", to: "messages", in: "inbox", newJoins: false, loadingView: false))
        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages"])
        XCTAssertEqual(navigation.children.map(\.identifier), ["messages"])
        XCTAssertTrue(navigation.installsExactly([navigation.root]))
    }

    func testPush_whenTheViewIsNotLoaded_thenLoadsNothingAndOnlyTheTopAppearsLater() async throws {
        let navigation = try makeNavigation()

        try navigation.push(identifier: "thread", animated: true)
        try navigation.push(identifier: "attachment", animated: true)

        XCTAssertEqual(
            log.take(),
            [
                "thread.willMove(toParent: inbox)", "thread.didMove(toParent: inbox)",
                "attachment.willMove(toParent: inbox)", "attachment.didMove(toParent: inbox)",
            ])
        show(navigation)
        XCTAssertEqual(log.take(), ["attachment.viewDidLoad", "attachment.viewWillAppear(false)", "attachment.viewDidAppear(false)"])
        XCTAssertFalse(navigation.root.isViewLoaded)
    }

    func testSnapshot_thenTheTopIsCurrentAndEveryScreenHasAPath() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        try navigation.push(identifier: "thread", animated: false)

        let snapshot = navigation.snapshot()

        assertSnapshot(snapshot, type: "NavigationController", current: "thread", childPaths: ["inbox/messages", "inbox/thread"])
        XCTAssertEqual(snapshot.node(at: "inbox/thread")?.onScreen, true)
        XCTAssertEqual(snapshot.node(at: "inbox/messages")?.onScreen, false)
        XCTAssertTrue(navigation.deepestCurrent.identifier == "thread")
    }

    func testRestoration_whenDecodedIntoAFreshTreeBeforeItAppears_thenRebuildsTheStackWithoutLoadingViews() async throws {
        let navigation = try makeNavigation()
        show(navigation)
        try navigation.push(identifier: "thread", animated: false)
        try navigation.push(identifier: "attachment", animated: false)
        let saved = try navigation.restorableTreeSavedThroughJSON()
        XCTAssertEqual(saved.controllers["inbox"], ["stack": ["thread", "attachment"]])
        let fresh = try makeNavigation()

        try fresh.decodeRestorableTree(saved)

        XCTAssertEqual(fresh.stack.map(\.identifier), ["messages", "thread", "attachment"])
        XCTAssertEqual(
            log.take(),
            [
                "thread.willMove(toParent: inbox)", "thread.didMove(toParent: inbox)",
                "attachment.willMove(toParent: inbox)", "attachment.didMove(toParent: inbox)",
            ])
        XCTAssertFalse(fresh.isViewLoaded)
        show(fresh)
        XCTAssertEqual(log.take(), ["attachment.viewDidLoad", "attachment.viewWillAppear(false)", "attachment.viewDidAppear(false)"])
        XCTAssertEqual(fresh.pop(animated: false)?.identifier, "attachment")
    }

    func testRestoration_whenSomeScreensAreInPlace_thenKeepsThemAndStopsAtTheFirstItCannotMake() async throws {
        let navigation = try makeNavigation()
        let window = Window(size: Size(width: 1280, height: 800))
        window.rootController = navigation
        try navigation.push(identifier: "thread", animated: false)
        try navigation.push(identifier: "draft", animated: false)
        let thread = navigation.stack[1]
        _ = log.take()

        try navigation.decodeRestorableTree(RestorationDocument(controllers: ["inbox": ["stack": ["thread", "attachment", "unknown-x", "more"]]]))

        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages", "thread", "attachment"])
        XCTAssertTrue(navigation.stack[1] === thread)
        XCTAssertEqual(
            log.take(),
            [
                "draft.willMove(toParent: nil)", "draft.didMove(toParent: nil)",
                "attachment.willMove(toParent: inbox)", "attachment.didMove(toParent: inbox)",
                "attachment.viewDidLoad",
            ])
        XCTAssertTrue(navigation.installsExactly([navigation.top]))
        window.makeVisible()
        XCTAssertEqual(log.take(), ["attachment.viewWillAppear(false)", "attachment.viewDidAppear(false)"])
    }

    func testRestoration_whenTheSavedStackIsEmpty_thenPopsToTheRootAndIgnoresGarbage() async throws {
        let navigation = try makeNavigation()
        try navigation.push(identifier: "thread", animated: false)

        try navigation.decodeRestorableTree(RestorationDocument(controllers: ["inbox": ["stack": [1, 2]]]))
        XCTAssertEqual(navigation.stack.count, 2)
        try navigation.decodeRestorableTree(RestorationDocument(controllers: ["inbox": ["stack": ["thread", "thread", "a/b"]]]))
        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages", "thread"])
        try navigation.decodeRestorableTree(RestorationDocument(controllers: ["inbox": ["stack": []]]))
        XCTAssertEqual(navigation.stack.map(\.identifier), ["messages"])
    }
}
