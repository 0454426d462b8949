import Synchronization

/// One tree's last activity, as `ReportActivity` records it on the connection's thread
/// without the main actor: a front-end reports every touch, so recording one must cost an
/// atomic store, not a hop. The tree's ``IdleTimeline`` reads it when its timer fires.
final class ActivityMark: Sendable {
    /// The tree's name.
    let tree: String
    /// The last activity, in nanoseconds on the ``IdleTimer``; `Int64.min` for none yet.
    private let last = Atomic<Int64>(.min)
    /// Whether no idle step has fired since the clock last started: then an activity only moves
    /// the clock, which the atomic store does; after a step, the main actor must also undo it.
    private let quiet = Atomic<Bool>(true)

    init(tree: String) {
        self.tree = tree
    }

    /// Records an activity.
    /// - Parameter time: When, on the idle timer.
    /// - Returns: Whether that is all it takes; false when a step has fired, which the main
    ///   actor must learn of.
    func record(at time: Duration) -> Bool {
        last.max(Self.nanoseconds(time), ordering: .sequentiallyConsistent)
        return quiet.load(ordering: .sequentiallyConsistent)
    }

    /// The last activity recorded; nil when none was.
    var lastActivity: Duration? {
        let value = last.load(ordering: .sequentiallyConsistent)
        return value == .min ? nil : .nanoseconds(value)
    }

    /// Marks that a step fires (or that none has since the clock started again).
    /// - Parameter isQuiet: False when a step fires.
    func setQuiet(_ isQuiet: Bool) {
        quiet.store(isQuiet, ordering: .sequentiallyConsistent)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
