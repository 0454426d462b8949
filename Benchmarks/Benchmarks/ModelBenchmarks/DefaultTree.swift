import StateContainers

/// The embedded default tree (`TreeFile.default`), as the daemon builds it, shown in its window and
/// logged in, so that the snapshot covers the larger half of the tree (home, its menu, pages,
/// inbox and dashboard) rather than the login screen.
@MainActor
final class DefaultTree {
    let window: Window
    let root: Controller

    init() throws {
        let clock = ManualClock()
        window = try TreeBuilder.build(TreeFile.default.trees[0], clock: clock)
        window.makeVisible()
        guard let session = window.rootController as? LoginStateController else {
            throw FixtureError("the default tree's root is not a login container")
        }
        try session.logIn(user: "bench")
        // The tree file may animate the swap; finish it so that the logged-in tree is shown.
        clock.advance(by: .seconds(10))
        guard session.shownController.identifier == "home" else {
            throw FixtureError("logging in did not show home")
        }
        root = session
    }
}

/// A fixture that could not be set up: the benchmark stops with this message.
struct FixtureError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
