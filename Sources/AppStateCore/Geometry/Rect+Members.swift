extension Rect {
    /// A rectangle from the members `io.appstate.Rect` carries.
    /// - Parameter members: The origin's coordinates and the extents.
    init(members: Members) {
        self.init(x: members.x, y: members.y, width: members.width, height: members.height)
    }

    /// The members `io.appstate.Rect` carries: the origin and size as given, not standardised,
    /// so that what a tree holds is what a client sees.
    var members: Members {
        Members(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
}
