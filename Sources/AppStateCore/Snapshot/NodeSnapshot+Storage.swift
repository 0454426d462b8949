extension NodeSnapshot {
    /// The box of a node's ``Members`` (generated from `io.appstate.Node`). Changed only
    /// through a ``NodeSnapshot`` that holds the sole reference (`uniqueStorage()`), which is
    /// what makes sharing it between threads safe, and never while one of its members is being
    /// changed in place, which is why its members skip the runtime's exclusivity checks: those
    /// cost more than reading a member.
    @usableFromInline final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline var members: Members

        @usableFromInline init(_ members: Members) {
            self.members = members
        }
    }
}
