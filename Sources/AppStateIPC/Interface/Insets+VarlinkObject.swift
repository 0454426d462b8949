import AppStateCore

/// Insets travel as the interface's `Insets` type.
extension Insets: VarlinkObject {
    /// The members of `io.appstate.Insets`.
    public static let memberNames = ["top", "left", "bottom", "right"]
}
