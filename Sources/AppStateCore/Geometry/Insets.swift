extension Insets {
    /// No inset on any edge.
    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)
}
