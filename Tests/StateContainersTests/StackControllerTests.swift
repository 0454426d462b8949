import AppStateCore
import StateContainers
import XCTest

final class StackControllerTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .labelled }

    private func makeStack(_ identifiers: [String] = ["list", "map"], spacing: Double = 0) throws -> StackController {
        let stack = try StackController(identifier: "dashboard", arrangedChildren: identifiers.map { controller($0) }, spacing: spacing)
        _ = log.take()
        return stack
    }

    private func frames(_ stack: StackController) -> [Rect] {
        stack.arrangedChildren.map(\.view.frame)
    }

    func testAppear_thenEveryChildIsInstalledAndAppearsInOrder() async throws {
        let stack = try makeStack()

        show(stack)

        XCTAssertEqual(
            log.take(),
            [
                "list.viewDidLoad", "map.viewDidLoad",
                "list.viewWillAppear(false)", "map.viewWillAppear(false)",
                "list.viewDidAppear(false)", "map.viewDidAppear(false)",
            ])
        XCTAssertTrue(stack.installsExactly(stack.arrangedChildren))
        XCTAssertEqual(stack.arrangedChildren.map(\.identifier), ["list", "map"])
        XCTAssertNil(stack.currentChild)
    }

    func testLayout_whenWiderThanTall_thenSplitsHorizontallyWithSpacing() async throws {
        let stack = try makeStack(spacing: 20)

        show(stack, size: Size(width: 1280, height: 800))

        XCTAssertEqual(stack.axis, .horizontal)
        XCTAssertEqual(frames(stack), [Rect(x: 0, y: 0, width: 630, height: 800), Rect(x: 650, y: 0, width: 630, height: 800)])
    }

    func testLayout_whenTallerThanWideOrSquare_thenSplitsVerticallyWithSpacing() async throws {
        let stack = try makeStack(["a", "b", "c"], spacing: 5)

        let window = show(stack, size: Size(width: 600, height: 1000))

        XCTAssertEqual(stack.axis, .vertical)
        XCTAssertEqual(
            frames(stack),
            [
                Rect(x: 0, y: 0, width: 600, height: 330),
                Rect(x: 0, y: 335, width: 600, height: 330),
                Rect(x: 0, y: 670, width: 600, height: 330),
            ])
        window.resize(to: Size(width: 1000, height: 1000))
        XCTAssertEqual(stack.axis, .vertical)
    }

    func testResize_whenRotated_thenFlipsTheAxisAndTellsEachChildItsOwnSize() async throws {
        let stack = try makeStack(spacing: 20)
        let window = show(stack, size: Size(width: 1280, height: 800))
        _ = log.take()

        window.resize(to: Size(width: 800, height: 1280))

        XCTAssertEqual(log.take(), ["list.viewWillTransition(to: 800x630)", "map.viewWillTransition(to: 800x630)"])
        XCTAssertEqual(stack.axis, .vertical)
        XCTAssertEqual(frames(stack), [Rect(x: 0, y: 0, width: 800, height: 630), Rect(x: 0, y: 650, width: 800, height: 630)])
    }

    func testResize_whenAChildKeepsItsSize_thenItIsNotTold() async throws {
        let stack = try makeStack()
        let window = show(stack, size: Size(width: 1280, height: 800))
        _ = log.take()

        window.resize(to: Size(width: 1280, height: 800))
        window.resize(to: Size(width: 1280, height: 600))

        XCTAssertEqual(log.take(), ["list.viewWillTransition(to: 640x600)", "map.viewWillTransition(to: 640x600)"])
    }

    func testSpacing_whenSet_thenLaysOutAgainAndIgnoresInvalidValues() async throws {
        let stack = try makeStack()
        show(stack, size: Size(width: 1000, height: 500))

        stack.spacing = 100
        XCTAssertEqual(frames(stack), [Rect(x: 0, y: 0, width: 450, height: 500), Rect(x: 550, y: 0, width: 450, height: 500)])
        for invalid in [-1, .nan, .infinity] { stack.spacing = invalid }

        XCTAssertEqual(stack.spacing, 100)
        XCTAssertEqual(warnings.count, 3)
        XCTAssertEqual(frames(stack)[1], Rect(x: 550, y: 0, width: 450, height: 500))
    }

    func testLayout_whenSpacingExceedsTheLength_thenSlotsAreEmptyNotNegative() async throws {
        let stack = try makeStack(spacing: 2000)

        show(stack, size: Size(width: 1280, height: 800))

        XCTAssertEqual(frames(stack).map(\.size), [Size(width: 0, height: 800), Size(width: 0, height: 800)])
    }

    func testInit_whenSpacingOrIdentifiersAreInvalid_thenThrows() async {
        assertThrows(.invalidArgument) { try StackController(identifier: "s", arrangedChildren: [], spacing: -1) }
        assertThrows(.invalidArgument) { try StackController(identifier: "s", arrangedChildren: [], spacing: .nan) }
        assertThrows(.duplicateIdentifier) {
            try StackController(identifier: "s", arrangedChildren: [Controller(identifier: "x"), Controller(identifier: "x")])
        }
    }

    func testEmptyStack_thenLaysOutNothing() async throws {
        let stack = try StackController(identifier: "s", arrangedChildren: [])

        let window = show(stack)
        window.resize(to: Size(width: 10, height: 20))

        XCTAssertTrue(stack.view.subviews.isEmpty)
        XCTAssertEqual(stack.axis, .vertical)
    }

    func testAxis_whenTheViewIsNotLoaded_thenIsVerticalAndLoadsNothing() async throws {
        let stack = try makeStack()

        XCTAssertEqual(stack.axis, .vertical)
        XCTAssertFalse(stack.isViewLoaded)
        XCTAssertEqual(log.take(), [])
        XCTAssertEqual(StackController.Axis(for: Size(width: 2, height: 1)), .horizontal)
    }

    func testSnapshot_thenEveryChildHasItsSlotInWindowCoordinates() async throws {
        let stack = try makeStack(spacing: 20)
        show(stack, size: Size(width: 1280, height: 800))

        let snapshot = stack.snapshot()

        assertSnapshot(snapshot, type: "StackController", current: nil, childPaths: ["dashboard/list", "dashboard/map"])
        XCTAssertEqual(snapshot.node(at: "dashboard/map")?.frame, Rect(x: 650, y: 0, width: 630, height: 800))
        XCTAssertEqual(snapshot.children.map(\.appearance), [.appeared, .appeared])
    }
}
