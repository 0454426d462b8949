extension NodeSnapshot: CustomReflectable {
    /// The node's members, as a struct holding them itself would show them: printing,
    /// `dump` and test failures show the members rather than the box that holds them.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.members).children, displayStyle: .struct)
    }
}
