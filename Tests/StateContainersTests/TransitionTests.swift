import AppStateCore
import StateContainers
import XCTest

/// `transition(from:to:…)` and the seven-step swap timeline of the containment contract
/// (`Sources/StateContainers/StateContainers.docc/ContainmentContract.md`), on a ManualClock.
final class TransitionTests: ModelTestCase {
    /// The log of ``swap(in:from:to:duration:)`` from `old` to `new` when no appearance
    /// callback is forwarded: the containment calls and the animation block's, nothing else.
    private let swapWithoutAppearance = [
        "old.willMove(nil)", "new.willMove(container)",
        "animations", "completion(true)",
        "old.didMove(nil)", "new.didMove(container)",
    ]

    /// A window, visible unless asked, whose root `container` shows `old`; `new` is not yet a child.
    private func makeSwap(loadNewView: Bool = true, visible: Bool = true) throws -> (
        window: Window, container: LoggingController, old: LoggingController, new: LoggingController
    ) {
        let (container, old) = try embedded("old", in: "container")
        let new = controller("new")
        if loadNewView { new.loadViewIfNeeded() }
        let window = visible ? visibleWindow(root: container) : hiddenWindow(root: container)
        return (window, container, old, new)
    }

    /// Steps 1, 2 and the `transition` call of the swap timeline, as a container swaps children.
    private func swap(
        in container: Controller,
        from old: Controller,
        to new: Controller,
        duration: Duration
    ) throws {
        old.willMove(toParent: nil)
        try container.addChild(new)
        try container.transition(
            from: old, to: new, duration: duration,
            animations: { [log] in
                log.append("animations")
            },
            completion: { [log] finished in
                log.append("completion(\(finished))")
                old.removeFromParent()
                new.didMove(toParent: container)
            })
    }

    /// Asserts that an immediate `transition(from:to:…)` in `container`, with neither
    /// animations nor completion, throws `expected`.
    private func assertTransition(
        in container: Controller, from: Controller, to: Controller, throws expected: ContainmentError,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        assertThrows(expected, file: file, line: line) {
            try container.transition(from: from, to: to, duration: .zero, animations: nil, completion: nil)
        }
    }

    func testTransition_whenAnimated_thenFollowsTheSevenStepTimelineOnTheClock() async throws {
        let (window, container, old, new) = try makeSwap()

        try swap(in: container, from: old, to: new, duration: .milliseconds(300))
        log.append("transition returned")

        let start = [
            "old.willMove(nil)",
            "new.willMove(container)",
            "old.viewWillDisappear(true) movingFrom=true",
            "new.viewWillAppear(true) movingTo=true",
            "animations",
            "transition returned",
        ]
        XCTAssertEqual(log.entries, start)
        XCTAssertEqual(old.appearance, .disappearing)
        XCTAssertEqual(new.appearance, .appearing)
        XCTAssertTrue(container.view.subviews.elementsEqual([old.view, new.view], by: ===), "both views are installed during the animation")

        clock.advance(by: .milliseconds(299))
        XCTAssertEqual(log.entries, start, "nothing of step 5 before the duration has passed")

        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(
            log.entries,
            start + [
                "old.viewDidDisappear(true) movingFrom=true",
                "new.viewDidAppear(true) movingTo=true",
                "completion(true)",
                "old.didMove(nil)",
                "new.didMove(container)",
            ])
        XCTAssertTrue(container.view.subviews.elementsEqual([new.view], by: ===))
        XCTAssertNil(old.view.superview)
        XCTAssertTrue(container.children.elementsEqual([new], by: ===))
        XCTAssertNil(old.parent)
        XCTAssertEqual(old.appearance, .disappeared)
        XCTAssertEqual(new.appearance, .appeared)
        XCTAssertEqual(warnings, [])
        withExtendedLifetime(window) {}
    }

    func testTransition_whenDurationIsZero_thenCompletesBeforeReturning() async throws {
        let (window, container, old, new) = try makeSwap()

        try swap(in: container, from: old, to: new, duration: .zero)
        log.append("transition returned")

        XCTAssertEqual(
            log.entries,
            [
                "old.willMove(nil)",
                "new.willMove(container)",
                "old.viewWillDisappear(false) movingFrom=true",
                "new.viewWillAppear(false) movingTo=true",
                "animations",
                "old.viewDidDisappear(false) movingFrom=true",
                "new.viewDidAppear(false) movingTo=true",
                "completion(true)",
                "old.didMove(nil)",
                "new.didMove(container)",
                "transition returned",
            ])
        XCTAssertTrue(container.view.subviews.elementsEqual([new.view], by: ===))
        withExtendedLifetime(window) {}
    }

    func testTransition_whenChildrenHaveChildren_thenTheyFollowTheirParents() async throws {
        let (window, container, old, new) = try makeSwap()
        let oldChild = controller("oldChild")
        let newChild = controller("newChild")
        try old.embed(oldChild)
        try new.embed(newChild)
        log.removeAll()

        try swap(in: container, from: old, to: new, duration: .seconds(1))
        clock.advance(by: .seconds(1))

        XCTAssertEqual(
            log.entries,
            [
                "old.willMove(nil)",
                "new.willMove(container)",
                "old.viewWillDisappear(true) movingFrom=true",
                "oldChild.viewWillDisappear(true)",
                "new.viewWillAppear(true) movingTo=true",
                "newChild.viewWillAppear(true)",
                "animations",
                "old.viewDidDisappear(true) movingFrom=true",
                "oldChild.viewDidDisappear(true)",
                "new.viewDidAppear(true) movingTo=true",
                "newChild.viewDidAppear(true)",
                "completion(true)",
                "old.didMove(nil)",
                "new.didMove(container)",
            ])
        withExtendedLifetime(window) {}
    }

    func testTransition_whenNewViewIsNotLoaded_thenItLoadsBeforeAppearingAndItsChildrenAppearToo() async throws {
        let (window, container, old, new) = try makeSwap(loadNewView: false)
        let newChild = controller("newChild")
        new.hook = { new, name in
            guard name == "viewDidLoad" else { return }
            expectNoThrow { try new.embed(newChild) }
        }

        try swap(in: container, from: old, to: new, duration: .zero)

        XCTAssertEqual(
            log.entries,
            [
                "old.willMove(nil)",
                "new.willMove(container)",
                "new.viewDidLoad",
                "newChild.willMove(new)",
                "newChild.viewDidLoad",
                "newChild.didMove(new)",
                "old.viewWillDisappear(false) movingFrom=true",
                "new.viewWillAppear(false) movingTo=true",
                "newChild.viewWillAppear(false)",
                "animations",
                "old.viewDidDisappear(false) movingFrom=true",
                "new.viewDidAppear(false) movingTo=true",
                "newChild.viewDidAppear(false)",
                "completion(true)",
                "old.didMove(nil)",
                "new.didMove(container)",
            ])
        XCTAssertEqual(newChild.appearance, .appeared)
        withExtendedLifetime(window) {}
    }

    func testTransition_whenOldViewIsInANestedView_thenNewViewIsInsertedInTheSameSuperview() async throws {
        let container = controller("container")
        let old = controller("old")
        let new = controller("new")
        let content = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        container.view.addSubview(content)
        try container.embed(old, in: content)
        let window = visibleWindow(root: container)

        try swap(in: container, from: old, to: new, duration: .seconds(1))
        XCTAssertTrue(new.view.superview === content)
        clock.advance(by: .seconds(1))

        XCTAssertTrue(content.subviews.elementsEqual([new.view], by: ===))
        XCTAssertTrue(container.view.subviews.elementsEqual([content], by: ===))
        withExtendedLifetime(window) {}
    }

    func testTransition_whenContainerIsOffScreen_thenSwapsViewsWithoutAppearanceCallbacks() async throws {
        let (window, container, old, new) = try makeSwap(visible: false)

        try swap(in: container, from: old, to: new, duration: .seconds(1))
        clock.advance(by: .seconds(1))

        XCTAssertEqual(log.entries, swapWithoutAppearance)
        XCTAssertTrue(container.view.subviews.elementsEqual([new.view], by: ===))
        XCTAssertEqual(warnings, [])
        withExtendedLifetime(window) {}
    }

    func testTransition_whenContainerForwardsManually_thenSendsNoAppearanceCallbacks() async throws {
        let (window, container, old, new) = try makeSwap()
        container.forwardsAppearance = false

        try swap(in: container, from: old, to: new, duration: .zero)

        XCTAssertEqual(log.entries, swapWithoutAppearance)
        withExtendedLifetime(window) {}
    }

    func testTransition_whenSeveralAreScheduled_thenEachFinishesAtItsOwnDeadline() async throws {
        let container = controller("container")
        let a = controller("a")
        let b = controller("b")
        let c = controller("c")
        let d = controller("d")
        for child in [a, c] { try container.embed(child) }
        for child in [b, d] {
            try container.addChild(child)
            child.loadViewIfNeeded()
            child.didMove(toParent: container)
        }
        let window = visibleWindow(root: container)

        try container.transition(from: a, to: b, duration: .seconds(2), animations: nil) { [log] _ in log.append("a→b done") }
        try container.transition(from: c, to: d, duration: .seconds(1), animations: nil) { [log] _ in log.append("c→d done") }
        log.removeAll()
        clock.advance(by: .seconds(1))
        XCTAssertEqual(log.entries, ["c.viewDidDisappear(true)", "d.viewDidAppear(true)", "c→d done"])
        clock.advance(by: .seconds(5))

        XCTAssertEqual(
            log.entries,
            [
                "c.viewDidDisappear(true)", "d.viewDidAppear(true)", "c→d done",
                "a.viewDidDisappear(true)", "b.viewDidAppear(true)", "a→b done",
            ])
        withExtendedLifetime(window) {}
    }

    func testTransition_whenAnAppearingGrandchildIsRemovedMidFlight_thenItDisappearsInsteadOfAppearing() async throws {
        let (window, container, old, new) = try makeSwap()
        let grandchild = controller("grandchild")
        try new.embed(grandchild)
        try swap(in: container, from: old, to: new, duration: .seconds(1))
        log.removeAll()

        grandchild.unembed()
        log.append("unembed returned")
        clock.advance(by: .seconds(1))

        XCTAssertEqual(
            log.entries,
            [
                "grandchild.willMove(nil)",
                "grandchild.viewWillDisappear(true) movingFrom=true",
                "grandchild.didMove(nil)",
                "unembed returned",
                "old.viewDidDisappear(true) movingFrom=true",
                "new.viewDidAppear(true) movingTo=true",
                "grandchild.viewDidDisappear(true)",
                "completion(true)",
                "old.didMove(nil)",
                "new.didMove(container)",
            ])
        XCTAssertEqual(grandchild.appearance, .disappeared)
        XCTAssertEqual(warnings, [])

        log.removeAll()
        try new.embed(grandchild)
        XCTAssertEqual(log.entries, log.embedding("grandchild", in: "new"), "it can appear again once re-embedded")
        withExtendedLifetime(window) {}
    }

    func testTransition_whenTheTreeLeavesTheWindowMidFlight_thenBothChildrenEndDisappeared() async throws {
        let (window, container, old, new) = try makeSwap()
        try swap(in: container, from: old, to: new, duration: .seconds(1))

        window.rootController = nil
        clock.advance(by: .seconds(1))

        XCTAssertEqual(old.appearance, .disappeared)
        XCTAssertEqual(new.appearance, .disappeared)
        XCTAssertEqual(container.appearance, .disappeared)
        XCTAssertTrue(container.children.elementsEqual([new], by: ===))

        log.removeAll()
        window.rootController = container
        XCTAssertEqual(log.entries, log.appearing("container", "new"))
    }

    // MARK: misuse

    func testTransition_whenToIsNotAChild_thenThrowsNotSiblingsAndChangesNothing() async throws {
        let (window, container, old, new) = try makeSwap()
        var completed = false

        assertThrows(.notSiblings) {
            try container.transition(from: old, to: new, duration: .zero, animations: { completed = true }, completion: { _ in completed = true })
        }

        XCTAssertFalse(completed)
        XCTAssertEqual(log.entries, [])
        XCTAssertTrue(container.view.subviews.elementsEqual([old.view], by: ===))
        XCTAssertNil(new.view.superview)
        XCTAssertEqual(old.appearance, .appeared)
        withExtendedLifetime(window) {}
    }

    func testTransition_whenFromBelongsToAnotherParent_thenThrowsNotSiblings() async throws {
        let (window, container, old, new) = try makeSwap()
        let other = controller("other")
        try other.addChild(new)
        log.removeAll()

        assertTransition(in: container, from: new, to: old, throws: .notSiblings)
        assertTransition(in: other, from: new, to: old, throws: .notSiblings)

        XCTAssertEqual(log.entries, [])
        withExtendedLifetime(window) {}
    }

    func testTransition_whenFromIsTo_thenThrowsNotSiblings() async throws {
        let (window, container, old, _) = try makeSwap()

        assertTransition(in: container, from: old, to: old, throws: .notSiblings)

        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(old.appearance, .appeared)
        withExtendedLifetime(window) {}
    }

    func testTransition_whenOneIsInFlight_thenAnotherInvolvingItsChildrenThrowsAndChangesNothing() async throws {
        let (window, container, old, new) = try makeSwap()
        let third = controller("third")
        third.loadViewIfNeeded()
        try swap(in: container, from: old, to: new, duration: .seconds(1))
        try container.addChild(third)
        log.removeAll()

        assertTransition(in: container, from: new, to: third, throws: .transitionInProgress)
        assertTransition(in: container, from: new, to: old, throws: .transitionInProgress)
        assertTransition(in: container, from: third, to: old, throws: .transitionInProgress)
        XCTAssertEqual(log.entries, [])
        XCTAssertNil(third.view.superview)
        XCTAssertEqual(third.appearance, .disappeared)

        clock.advance(by: .seconds(1))
        log.removeAll()
        try container.transition(from: new, to: third, duration: .zero, animations: nil, completion: nil)

        XCTAssertEqual(
            log.entries,
            [
                "new.viewWillDisappear(false)",
                "third.viewWillAppear(false) movingTo=true",
                "new.viewDidDisappear(false)",
                "third.viewDidAppear(false) movingTo=true",
            ], "once the first transition completed the next one runs")
        withExtendedLifetime(window) {}
    }

    // MARK: teardown

    func testTransition_whenCompletedAndTheTreeIsReleased_thenEverythingDeallocates() async throws {
        weak var weakWindow: Window?
        weak var weakContainer: Controller?
        weak var weakOld: Controller?
        weak var weakNew: Controller?
        weak var weakOldView: View?
        do {
            let (window, container, old, new) = try makeSwap()
            try swap(in: container, from: old, to: new, duration: .seconds(1))
            clock.advance(by: .seconds(1))
            window.rootController = nil
            weakWindow = window
            weakContainer = container
            weakOld = old
            weakNew = new
            weakOldView = old.view
        }

        XCTAssertNil(weakWindow)
        XCTAssertNil(weakContainer)
        XCTAssertNil(weakOld)
        XCTAssertNil(weakNew)
        XCTAssertNil(weakOldView)
    }

    func testTransition_whenCompletedAndTheWindowIsReleasedWithTheTree_thenEverythingDeallocates() async throws {
        weak var weakWindow: Window?
        weak var weakContainer: Controller?
        weak var weakNew: Controller?
        do {
            let (window, container, old, new) = try makeSwap()
            try swap(in: container, from: old, to: new, duration: .zero)
            weakWindow = window
            weakContainer = container
            weakNew = new
        }

        XCTAssertNil(weakWindow)
        XCTAssertNil(weakContainer)
        XCTAssertNil(weakNew)
    }
}
