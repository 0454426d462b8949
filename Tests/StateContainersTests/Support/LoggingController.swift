import AppStateCore
import StateContainers
import XCTest

/// The shared, ordered record of every callback the controllers of one test received.
@MainActor final class CallbackLog {
    private(set) var entries: [String] = []

    func append(_ entry: String) { entries.append(entry) }
    func removeAll() { entries.removeAll() }
}

/// A controller that records each lifecycle and containment callback into a shared
/// ``CallbackLog`` as `"<identifier>.<callback>"`.
///
/// Every entry carries ` movingTo=true` / ` movingFrom=true` only when
/// `isMovingToParent` / `isMovingFromParent` is true inside the callback, so a whole-log
/// comparison also pins those flags to false everywhere else.
@MainActor class LoggingController: Controller {
    let log: CallbackLog

    /// Runs after the entry of each callback is recorded, with the callback's name
    /// (`"viewWillAppear"`, `"willMove"`, …): lets a test act or inspect from inside one.
    var hook: ((LoggingController, String) -> Void)?

    /// Overrides ``Controller/shouldAutomaticallyForwardAppearanceMethods``.
    var forwardsAppearance = true

    /// When set, every child gets this size from `size(forChildContentContainer:withParentContainerSize:)`.
    var fixedChildSize: Size?

    /// When true, `viewWillLayoutSubviews` makes every installed child's view fill this view's bounds.
    var layoutChildrenToFill = false

    init(_ identifier: String, log: CallbackLog, title: String? = nil) {
        self.log = log
        super.init(identifier: identifier, title: title)
    }

    override var shouldAutomaticallyForwardAppearanceMethods: Bool { forwardsAppearance }

    override func viewDidLoad() {
        super.viewDidLoad()
        record("viewDidLoad", name: "viewDidLoad")
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        record("viewWillAppear(\(animated))", name: "viewWillAppear")
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        record("viewDidAppear(\(animated))", name: "viewDidAppear")
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        record("viewWillDisappear(\(animated))", name: "viewWillDisappear")
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        record("viewDidDisappear(\(animated))", name: "viewDidDisappear")
    }

    override func willMove(toParent parent: Controller?) {
        super.willMove(toParent: parent)
        record("willMove(\(parent?.identifier ?? "nil"))", name: "willMove")
    }

    override func didMove(toParent parent: Controller?) {
        super.didMove(toParent: parent)
        record("didMove(\(parent?.identifier ?? "nil"))", name: "didMove")
    }

    override func viewWillTransition(to size: Size) {
        record("viewWillTransition(\(format(size)))", name: "viewWillTransition")
        super.viewWillTransition(to: size)
    }

    override func size(forChildContentContainer child: Controller, withParentContainerSize parentSize: Size) -> Size {
        fixedChildSize ?? super.size(forChildContentContainer: child, withParentContainerSize: parentSize)
    }

    override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        guard layoutChildrenToFill else { return }
        for child in children where child.isViewLoaded && child.view.superview === view {
            child.view.frame = view.bounds
        }
    }

    private var movingSuffix: String {
        (isMovingToParent ? " movingTo=true" : "") + (isMovingFromParent ? " movingFrom=true" : "")
    }

    private func record(_ entry: String, name: String) {
        log.append("\(identifier).\(entry)" + movingSuffix)
        hook?(self, name)
    }
}

/// Formats a size as `WxH` with integral values printed without a fraction.
func format(_ size: Size) -> String {
    func number(_ value: Double) -> String {
        if let integer = Int(exactly: value) { return String(integer) }
        return String(value)
    }
    return "\(number(size.width))x\(number(size.height))"
}

/// A test case for the model: builds a ``CallbackLog`` per test and captures
/// ``ContainmentWarning``s, restoring the previous handler afterwards.
@MainActor class ModelTestCase: XCTestCase {
    var log = CallbackLog()
    var warnings: [ContainmentWarning] = []
    private var savedHandler: (@MainActor (ContainmentWarning) -> Void)?

    // XCTestCase's own setUp and tearDown do nothing; calling them from the main actor
    // would send the non-Sendable test case across isolation domains.
    override func setUp() async throws {
        log = CallbackLog()
        warnings = []
        savedHandler = ContainmentWarning.handler
        ContainmentWarning.handler = { [unowned self] warning in self.warnings.append(warning) }
    }

    override func tearDown() async throws {
        if let savedHandler { ContainmentWarning.handler = savedHandler }
        savedHandler = nil
    }

    /// A controller recording into this test's log.
    func controller(_ identifier: String, title: String? = nil) -> LoggingController {
        LoggingController(identifier, log: log, title: title)
    }

    /// A visible window whose root is `root`, with the log cleared of the set-up callbacks.
    func visibleWindow(root: Controller, size: Size = Size(width: 400, height: 300), clock: ManualClock = ManualClock()) -> Window {
        let window = Window(size: size, clock: clock)
        window.rootController = root
        window.makeVisible()
        log.removeAll()
        return window
    }

    /// Asserts that `body` throws exactly `expected`.
    func assertThrows(
        _ expected: ContainmentError,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            XCTFail("expected \(expected) to be thrown", file: file, line: line)
        } catch let error as ContainmentError {
            XCTAssertEqual(error, expected, "threw \(error.description)", file: file, line: line)
        } catch {
            XCTFail("threw \(error), expected \(expected)", file: file, line: line)
        }
    }
}

/// Runs `body`, failing the test if it throws; usable inside non-throwing hooks.
func expectNoThrow(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
    do { try body() } catch { XCTFail("unexpected error: \(error)", file: file, line: line) }
}
