import AppStateIPC
import ServicePorts
import TreeFiles

/// The idle clocks of all trees (``IdleTimeline``) and the inhibitors that hold them back.
///
/// Activity reaches it three ways: `ReportActivity`, recorded on the connection's thread in
/// the tree's ``ActivityMark`` and brought here only once a step has fired; the changes clients
/// and followers make (``RequestProcessor`` says which); and logind's `IdleHint` turning false.
/// What a step does, and the dismissal of what it presented, go back through ``fire`` and
/// ``dismiss``, batches of the processor's own.
@MainActor final class IdleClock {
    private let timer: any IdleTimer
    /// Where `ReportActivity` finds a tree's mark without the main actor.
    nonisolated let board = ActivityBoard()
    /// One per tree, in the trees' order.
    private var timelines: [IdleTimeline] = []
    private var held: [HeldInhibitor] = []
    private var taken = 0
    /// Carries out a step of a tree.
    var fire: @MainActor (_ tree: String, _ action: IdleStep.Action) -> Void = { _, _ in }
    /// Dismisses what a step of a tree presented, by its identifier, if it still is.
    var dismiss: @MainActor (_ tree: String, _ identifier: String) -> Void = { _, _ in }
    /// The daemon's own inhibitor with the system (logind's), held while any client holds one.
    var systemInhibitor: (any SystemIdleInhibitor)? {
        didSet { systemInhibitor?.hold(held.first?.why) }
    }

    /// Creates the clocks, none yet; see ``configure(_:)``.
    /// - Parameter timer: The clock and its timers.
    init(timer: any IdleTimer) {
        self.timer = timer
    }

    /// The time on the idle timer, for readers on any thread.
    nonisolated var now: Duration { timer.now }

    /// Takes the trees' steps, when they are built or reloaded: a tree that stays keeps its
    /// clock and its inhibitors; a tree that is gone loses them.
    /// - Parameter trees: Each tree's name and steps, the default first.
    func configure(_ trees: [(name: String, steps: [IdleStep])]) {
        let previous = Dictionary(timelines.map { ($0.mark.tree, $0) }, uniquingKeysWith: { first, _ in first })
        timelines = trees.map { tree in
            if let timeline = previous[tree.name] {
                timeline.replaceSteps(tree.steps)
                return timeline
            }
            let name = tree.name
            return IdleTimeline(
                mark: ActivityMark(tree: name), steps: tree.steps, timer: timer, fire: { [weak self] action in self?.fire(name, action) },
                dismiss: { [weak self] identifier in self?.dismiss(name, identifier) })
        }
        let names = Set(trees.map(\.name))
        for timeline in previous.values where !names.contains(timeline.mark.tree) { timeline.stop() }
        held.removeAll { !names.contains($0.tree) }
        systemInhibitor?.hold(held.first?.why)
        board.show(timelines.map(\.mark))
    }

    /// Someone used a tree, or changed it.
    /// - Parameter tree: The tree's name, nil for the first; a name no tree has does nothing.
    func activity(tree: String?) {
        timeline(tree)?.activity()
    }

    /// Takes what a tree's root presents as a step's presentation, when a step of the tree
    /// presents it: found presented at the daemon's start, it was restored.
    /// - Parameters:
    ///   - tree: The tree's name.
    ///   - identifier: The presented controller's identifier.
    func adopt(tree: String, presented identifier: String) {
        guard let timeline = timeline(tree), timeline.steps.contains(where: { $0.action == .present(identifier) }) else { return }
        timeline.adopt(presented: identifier)
    }

    /// A client reported that someone used a tree.
    /// - Parameter tree: The tree's name, nil for the first.
    /// - Throws: `io.appstate.NoSuchTree`.
    func reportActivity(tree: String?) throws(VarlinkError) {
        try TreeSnapshots.tree(named: tree, in: timelines, name: \.mark.tree).activity()
    }

    /// What logind says of the session a tree follows.
    /// - Parameters:
    ///   - tree: The tree's name.
    ///   - duration: How long the session has been idle; nil when it is not.
    func systemIdle(tree: String, for duration: Duration?) {
        timeline(tree)?.systemIdle(for: duration)
    }

    /// Takes an inhibitor for a client.
    /// - Parameters:
    ///   - tree: The tree's name, nil for the first.
    ///   - peer: Who holds it.
    ///   - why: Why, in the holder's words.
    /// - Returns: The inhibitor's number, for ``release(_:)``.
    /// - Throws: `io.appstate.NoSuchTree`.
    func inhibit(tree: String?, peer: Peer, why: String) throws(VarlinkError) -> Int {
        let timeline = try TreeSnapshots.tree(named: tree, in: timelines, name: \.mark.tree)
        taken += 1
        held.append(HeldInhibitor(number: taken, tree: timeline.mark.tree, uid: peer.uid, pid: peer.pid, why: why, taken: timer.now))
        timeline.inhibit()
        if held.count == 1 { systemInhibitor?.hold(why) }
        return taken
    }

    /// Ends an inhibitor, when its client's connection closed.
    /// - Parameter number: What ``inhibit(tree:peer:why:)`` returned.
    func release(_ number: Int) {
        guard let index = held.firstIndex(where: { $0.number == number }) else { return }
        let inhibitor = held.remove(at: index)
        timeline(inhibitor.tree)?.release()
        if held.isEmpty { systemInhibitor?.hold(nil) }
    }

    /// Each tree with idle steps, as `GetStats` shows it.
    var states: [IdleState] {
        timelines.filter { !$0.steps.isEmpty }.map { timeline in
            IdleState(
                tree: timeline.mark.tree, idleSeconds: Self.seconds(timeline.idleFor), stepsFired: timeline.fired,
                nextStep: timeline.nextStep?.action?.description, nextStepInSeconds: timeline.nextStepIn.map(Self.seconds),
                inhibitors: timeline.inhibitors)
        }
    }

    /// The inhibitors held, oldest first, as `GetStats` shows them.
    var inhibitors: [Inhibitor] {
        held.map { inhibitor in
            Inhibitor(
                tree: inhibitor.tree, uid: Int(inhibitor.uid), pid: Int(inhibitor.pid), why: inhibitor.why,
                heldSeconds: Self.seconds(timer.now - inhibitor.taken))
        }
    }

    private func timeline(_ tree: String?) -> IdleTimeline? {
        try? TreeSnapshots.tree(named: tree, in: timelines, name: \.mark.tree)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
