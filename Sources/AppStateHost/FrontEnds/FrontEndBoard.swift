import AppStateIPC

/// The front-ends that show each tree and report how they are doing (`ReportFrontEnd`):
/// appstate-kiosk's browser, pages through the gateway. Each is known by its tree, kind and
/// name, in the order it first reported; one that does not report again within its liveness
/// interval is marked down, and stays listed as down until it reports again.
///
/// What a client can make it hold is bounded: at most ``maximumPerTree`` front-ends a tree,
/// and few liveness timers at a time, whatever the reports say (see ``schedule()``).
@MainActor final class FrontEndBoard {
    /// The most front-ends kept for one tree; a new one beyond it takes the place of the down
    /// one that reported least recently, else of the one that reported least recently.
    static let maximumPerTree = 32

    /// How late a front-end may be marked down, at least, rather than set one more timer.
    static let slack: Duration = .milliseconds(10)

    /// What a report did.
    struct Report {
        /// The front-end as it is now.
        var frontEnd: FrontEnd
        /// Whether its state, reason, counts or socket changed: it is new, or differs.
        var changed: Bool
        /// How many more reloads it counts than it did at its previous report; none at its
        /// first, and none when its count went down (it started again).
        var reloadsAdded: Int
        /// How many more restarts it counts than it did at its previous report, likewise.
        var restartsAdded: Int
    }

    private struct Entry {
        var frontEnd: FrontEnd
        /// How long it may go without reporting.
        var interval: Duration
        /// When it last reported, on the timer's clock.
        var reported: Duration
        /// The number of its last report among all the board took, which orders reports
        /// made at the same time.
        var sequence: Int
        var isDown: Bool { frontEnd.state == FrontEndBoard.down }
        var deadline: Duration { reported + interval }
    }

    /// The state of a front-end that said it is down, or was marked so.
    nonisolated static let down = "down"

    private let timer: any IdleTimer
    /// Each tree's front-ends, in the order they first reported.
    private var trees: [String: [Entry]] = [:]
    /// When each waiting timer fires.
    private var timersDue: [Duration] = []
    /// The reports taken.
    private var reports = 0
    /// Told of each front-end marked down for not reporting in time.
    var markedDown: @MainActor (FrontEnd) -> Void = { _ in }

    /// Creates an empty board.
    /// - Parameter timer: The clock and the timers liveness is measured with.
    init(timer: any IdleTimer) {
        self.timer = timer
    }

    /// Records a report of a front-end of `tree`, whose parameters were validated.
    /// - Parameters:
    ///   - parameters: The report.
    ///   - tree: The tree's name, as the host knows it.
    /// - Returns: What the report changed.
    func report(_ parameters: ReportFrontEnd.Parameters, tree: String) -> Report {
        let now = timer.now
        reports += 1
        // A live front-end needs no reason, as the interface says of its list.
        let reason = parameters.state == "live" ? nil : parameters.reason.flatMap { $0.isEmpty ? nil : $0 }
        let frontEnd = FrontEnd(
            tree: tree, kind: parameters.kind, name: parameters.name, state: parameters.state, reason: reason,
            reloads: parameters.reloads ?? 0, restarts: parameters.restarts ?? 0, socket: parameters.socket)
        let interval = Duration.milliseconds(Int64((parameters.livenessInterval * 1000).rounded(.up)))
        let entry = Entry(frontEnd: frontEnd, interval: interval, reported: now, sequence: reports)
        var entries = trees[tree] ?? []
        let report: Report
        if let index = entries.firstIndex(where: { $0.frontEnd.kind == frontEnd.kind && $0.frontEnd.name == frontEnd.name }) {
            let previous = entries[index].frontEnd
            report = Report(
                frontEnd: frontEnd, changed: previous != frontEnd, reloadsAdded: max(0, frontEnd.reloads - previous.reloads),
                restartsAdded: max(0, frontEnd.restarts - previous.restarts))
            entries[index] = entry
        } else {
            if entries.count >= Self.maximumPerTree, let oldest = Self.leastRecent(entries) { entries.remove(at: oldest) }
            entries.append(entry)
            report = Report(frontEnd: frontEnd, changed: true, reloadsAdded: 0, restartsAdded: 0)
        }
        trees[tree] = entries
        schedule()
        return report
    }

    /// Forgets the front-ends of trees that are gone, after a reload.
    /// - Parameter names: The trees there are now.
    func keep(trees names: [String]) {
        trees = trees.filter { names.contains($0.key) }
    }

    /// Every front-end, tree by tree in the order given, each tree's in the order they first
    /// reported, as `GetStats` lists them.
    /// - Parameter names: The trees, in their order.
    func frontEnds(in names: [String]) -> [FrontEnd] {
        names.flatMap { trees[$0]?.map(\.frontEnd) ?? [] }
    }

    /// The socket of the kiosk of a tree that reported most recently, is not down and gave
    /// one, as `GetKiosk` answers it.
    /// - Parameter tree: The tree's name.
    func kioskSocket(of tree: String) -> String? {
        trees[tree]?.filter { $0.frontEnd.kind == "kiosk" && !$0.isDown && $0.frontEnd.socket != nil }.max { $0.sequence < $1.sequence }?
            .frontEnd.socket
    }

    /// How many front-ends of each kind are not down, for each of `names`, every kind listed.
    /// - Parameter names: The trees.
    func up(in names: [String]) -> [(tree: String, kind: String, count: Int)] {
        names.flatMap { tree in
            ReportFrontEnd.Parameters.kinds.map { kind in
                (tree, kind, trees[tree]?.count { $0.frontEnd.kind == kind && !$0.isDown } ?? 0)
            }
        }
    }

    /// The index of the entry to drop for a new one: the down one that reported least
    /// recently, else the one that reported least recently.
    private static func leastRecent(_ entries: [Entry]) -> Int? {
        let down = entries.indices.filter { entries[$0].isDown }
        return (down.isEmpty ? Array(entries.indices) : down).min { entries[$0].sequence < entries[$1].sequence }
    }

    /// Sets a timer for the earliest deadline of a front-end that is up, unless one waits
    /// that fires by then, or not much later: within a tenth of the time until the deadline
    /// (or ``slack``, if more). A timer cannot be taken back, so a client that kept shortening
    /// its interval would otherwise leave one waiting at each report; this way each timer
    /// waiting is due a tenth further off than the one before it, so that few wait at once,
    /// and a front-end is marked down a tenth of its interval late at most.
    private func schedule() {
        guard let next = trees.values.joined().filter({ !$0.isDown }).map(\.deadline).min() else { return }
        let now = timer.now
        if let due = timersDue.min(), due <= next + max(Self.slack, (next - now) / 10) { return }
        timersDue.append(next)
        timer.schedule(after: max(.zero, next - now)) { [weak self] in self?.expire(due: next) }
    }

    /// Marks down every front-end whose deadline has passed, then waits for the next.
    private func expire(due: Duration) {
        if let index = timersDue.firstIndex(of: due) { timersDue.remove(at: index) }
        let now = timer.now
        var expired: [FrontEnd] = []
        for (tree, entries) in trees {
            var entries = entries
            for index in entries.indices where !entries[index].isDown && entries[index].deadline <= now {
                entries[index].frontEnd.state = Self.down
                entries[index].frontEnd.reason = "did not report within \(Self.seconds(entries[index].interval)) s"
                expired.append(entries[index].frontEnd)
            }
            trees[tree] = entries
        }
        schedule()
        for frontEnd in expired { markedDown(frontEnd) }
    }

    /// A duration as a person writes it in seconds: `10`, `0.2`.
    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
    }
}
