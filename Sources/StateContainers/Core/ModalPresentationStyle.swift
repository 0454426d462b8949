/// How a presented controller covers the controller that presents it, as
/// `UIModalPresentationStyle` says.
public enum ModalPresentationStyle: String, Hashable, Sendable, CaseIterable {
    /// The presented controller covers the screen, and the presenting controller's view leaves
    /// it when the presentation finishes: the presenting controller and its visible descendants
    /// get `viewWillDisappear` and `viewDidDisappear`. UIKit's default before its sheets.
    case fullScreen
    /// The presented controller covers the screen, and the presenting controller stays on
    /// screen underneath it, with no appearance callback.
    case overFullScreen
}
