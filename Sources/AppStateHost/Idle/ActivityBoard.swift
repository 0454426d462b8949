import AppStateIPC
import NIOConcurrencyHelpers

/// The trees' ``ActivityMark``s by name, for `ReportActivity` on the connection's thread: the
/// same lookup of a tree name as every method's, without the main actor.
final class ActivityBoard: Sendable {
    /// A pthread mutex (NIOLockedValueBox) rather than `Synchronization.Mutex`, whose
    /// futex-based lock ThreadSanitizer cannot see on Linux.
    private let marks = NIOLockedValueBox<[ActivityMark]>([])

    /// The mark of the tree with a name, or of the first tree for nil.
    /// - Throws: `io.appstate.NoSuchTree`.
    func mark(named name: String?) throws(VarlinkError) -> ActivityMark {
        try TreeSnapshots.tree(named: name, in: marks.withLockedValue { $0 }, name: \.tree)
    }

    /// Replaces the marks, when the trees are built or reloaded.
    /// - Parameter marks: One per tree, the default first.
    func show(_ marks: [ActivityMark]) {
        self.marks.withLockedValue { $0 = marks }
    }
}
