extension Present {
    /// How the presented controller covers the screen: the cases of `Present`'s `style`, as
    /// `UIModalPresentationStyle` names them.
    public enum Style: String, Hashable, Codable, Sendable, CaseIterable {
        /// The screen underneath leaves the screen once the presentation finished: the
        /// default.
        case fullScreen
        /// The screen underneath stays on screen under the presented controller.
        case overFullScreen
    }
}
