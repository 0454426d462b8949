/// Where a controller's view is in its appearance cycle, as UIKit tracks it.
public enum Appearance: String, CaseIterable, Hashable, Codable, Sendable {
    /// Not on screen, and not about to be.
    case disappeared
    /// Between `viewWillAppear` and `viewDidAppear`.
    case appearing
    /// On screen.
    case appeared
    /// Between `viewWillDisappear` and `viewDidDisappear`.
    case disappearing
}
