import Synchronization

extension NodeSnapshot {
    /// The box of a node's ``Members`` (generated from `io.appstate.Node`). Changed only
    /// through a ``NodeSnapshot`` that holds the sole reference (`uniqueStorage()`), which is
    /// what makes sharing it between threads safe, and never while one of its members is being
    /// changed in place, which is why its members skip the runtime's exclusivity checks: those
    /// cost more than reading a member.
    @usableFromInline final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline var members: Members
        /// The JSON text of the members but the children, made by the first reader that needs
        /// it, on whichever thread, and kept while the box lives: a box is never changed once
        /// it has it (`uniqueStorage()` copies it instead), so the text stays true.
        let ownEncoding = AtomicLazyReference<OwnEncoding>()

        @usableFromInline init(_ members: Members) {
            self.members = members
        }

        /// Whether the box may be changed in place by its sole holder: not once its text was
        /// made, which would then be stale.
        @usableFromInline var isUnencoded: Bool {
            ownEncoding.load() == nil
        }
    }
}
