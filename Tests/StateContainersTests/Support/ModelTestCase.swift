import AppStateCore
import StateContainers
import TestSupport
import XCTest

/// The base of the model's tests: a ``CallbackLog`` per test, the ``ContainmentWarning``s it
/// causes (the previous handler is restored afterwards), and windows to show its trees in.
@MainActor class ModelTestCase: AppStateTestCase {
    /// How this suite's expected logs spell the callbacks; see ``CallbackLog/Spelling``.
    class var spelling: CallbackLog.Spelling { .movement }

    /// The callbacks this test's ``LoggingController``s received, in the suite's spelling.
    private(set) lazy var log = CallbackLog(spelling: Self.spelling)
    /// The clock of this test's windows: animated transitions finish only when the test
    /// advances it.
    let clock = ManualClock()
    /// The containment warnings this test caused, in order.
    var warnings: [ContainmentWarning] = []
    private var savedHandler: (@MainActor (ContainmentWarning) -> Void)?
    /// A tree holds its window only weakly: ``show(_:size:bus:)`` keeps the windows here until the test ends.
    private var windows: [Window] = []

    // XCTestCase's own setUp and tearDown do nothing; calling them from the main actor
    // would send the non-Sendable test case across isolation domains.
    override func setUp() async throws {
        warnings = []
        savedHandler = ContainmentWarning.handler
        ContainmentWarning.handler = { [unowned self] warning in self.warnings.append(warning) }
    }

    override func tearDown() async throws {
        windows.removeAll()
        if let savedHandler { ContainmentWarning.handler = savedHandler }
        savedHandler = nil
    }

    /// A controller recording into this test's log.
    func controller(_ identifier: String, title: String? = nil) -> LoggingController {
        LoggingController(identifier, log: log, title: title)
    }

    /// `child` embedded in `parent` (its view installed in the parent's), with the log cleared
    /// of their callbacks: the starting point of most contract tests.
    func embedded(_ child: String, in parent: String) throws -> (parent: LoggingController, child: LoggingController) {
        let pair = (parent: controller(parent), child: controller(child))
        try pair.parent.embed(pair.child)
        log.removeAll()
        return pair
    }

    /// `grandchild` embedded in `child`, embedded in `root`, with the log cleared of their callbacks.
    func embedded(
        _ grandchild: String, in child: String, in root: String
    ) throws -> (root: LoggingController, child: LoggingController, grandchild: LoggingController) {
        let (root, child) = try embedded(child, in: root)
        let grandchild = controller(grandchild)
        try child.embed(grandchild)
        log.removeAll()
        return (root, child, grandchild)
    }

    /// Shows `root` in a visible window on the test's ``clock``; the window lives until the test ends.
    /// - Parameters:
    ///   - root: The tree's root.
    ///   - size: The window's size.
    ///   - bus: The window's notification bus.
    /// - Returns: The window, kept alive until the test ends.
    @discardableResult
    func show(
        _ root: Controller,
        size: Size = Size(width: 1280, height: 800),
        bus: NotificationBus = NotificationBus()
    ) -> Window {
        let window = Window(size: size, bus: bus, clock: clock)
        windows.append(window)
        window.rootController = root
        window.makeVisible()
        return window
    }

    /// Shows `root` as ``show(_:size:bus:)`` does, then clears the log of its appearing:
    /// the start of the tests that check what one call sends to a tree on screen.
    @discardableResult
    func showClearingLog(_ root: Controller) -> Window {
        let window = show(root)
        log.removeAll()
        return window
    }

    /// A visible window whose root is `root`, with the log cleared of the set-up callbacks.
    ///
    /// Unlike ``show(_:size:bus:)`` the test case does not keep the window: the tests
    /// that release their tree check that it deallocates.
    func visibleWindow(root: Controller, size: Size = Size(width: 400, height: 300)) -> Window {
        let window = hiddenWindow(root: root, size: size)
        window.makeVisible()
        log.removeAll()
        return window
    }

    /// A window that is not visible yet, whose root is `root` (its view loaded and installed),
    /// with the log cleared of the set-up callbacks; the test case does not keep it.
    func hiddenWindow(root: Controller, size: Size = Size(width: 400, height: 300)) -> Window {
        let window = Window(size: size, clock: clock)
        window.rootController = root
        log.removeAll()
        return window
    }

    /// Asserts what every container's snapshot says of itself: its type, its current child and
    /// its children's paths, in order.
    func assertSnapshot(
        _ snapshot: NodeSnapshot, type: String, current: String?, childPaths: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(snapshot.type, type, file: file, line: line)
        XCTAssertEqual(snapshot.current, current, file: file, line: line)
        XCTAssertEqual(snapshot.children.map(\.path), childPaths, file: file, line: line)
    }

    /// Asserts that `body` throws exactly `expected`.
    /// - Returns: The error thrown, for the tests that also check its message.
    @discardableResult
    func assertThrows<T>(
        _ expected: ContainmentError,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ body: () throws -> T
    ) -> ContainmentError? {
        do {
            _ = try body()
            XCTFail("expected \(expected) to be thrown", file: file, line: line)
        } catch let error as ContainmentError {
            XCTAssertEqual(error, expected, "threw \(error.description)", file: file, line: line)
            return error
        } catch {
            XCTFail("threw \(error), expected \(expected)", file: file, line: line)
        }
        return nil
    }
}
