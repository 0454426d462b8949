import AppStateCore

/// A rectangle travels as the interface's `Rect` type: its origin and size as given, not
/// standardised, so that what a tree holds is what a client sees.
extension Rect: VarlinkObject {
    /// The members of `io.appstate.Rect`.
    public static let memberNames = ["x", "y", "width", "height"]
}
