import StateContainers

extension Controller {
    /// Whether the views installed in this controller's view are exactly those of `expected`,
    /// in order: the containers' tests check after every swap that only the current children
    /// are installed.
    func installsExactly(_ expected: [Controller]) -> Bool {
        view.subviews.count == expected.count && zip(view.subviews, expected).allSatisfy { $0 === $1.view }
    }
}
