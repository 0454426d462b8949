import AppStateCore
import StateContainers
import XCTest

/// The base of the container tests: shows trees in windows that live as long as the test.
@MainActor
class ContainersATestCase: XCTestCase {
    /// A window holds its tree only weakly, as the tree holds its window: keep them here.
    private var windows: [Window] = []

    /// Shows `root` in a visible window on a manual clock, so that animated transitions
    /// finish only when the test advances it.
    /// - Parameters:
    ///   - root: The tree's root.
    ///   - size: The window's size.
    ///   - clock: The clock transitions take their duration on.
    /// - Returns: The window, kept alive until the test ends.
    @discardableResult
    func show(_ root: Controller, size: Size = Size(width: 1280, height: 800), clock: ManualClock = ManualClock()) -> Window {
        let window = Window(size: size, clock: clock)
        windows.append(window)
        window.rootController = root
        window.makeVisible()
        return window
    }
}
