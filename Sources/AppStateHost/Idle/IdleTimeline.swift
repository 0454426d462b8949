import TreeFiles

/// One tree's idle clock: when it last saw activity, which of the tree's ``IdleStep``s have
/// fired since, and the timer for the next one.
///
/// The clock runs from the latest of: the last activity (``ActivityMark``), the end of the
/// last inhibitor, and the start of the daemon. While logind says the session is idle, its
/// `IdleSinceHint` replaces the start and whatever came before logind said so: logind's word
/// is the latest on the session, and the daemon's own activity and inhibitors count again from
/// then on. Step `n` fires once the clock reaches its `after`; none fires while an inhibitor is
/// held. Activity dismisses what a step presented.
///
/// An activity recorded without the main actor only moves the clock: the timer, when it fires,
/// finds its deadline moved and waits again, so a touch costs no timer of its own.
@MainActor final class IdleTimeline {
    let mark: ActivityMark
    private(set) var steps: [IdleStep]
    private let timer: any IdleTimer
    /// Carries out a step that fires.
    private let fire: @MainActor (IdleStep.Action) -> Void
    /// Dismisses what a step presented, by its identifier, if it is still presented.
    private let dismiss: @MainActor (String) -> Void
    /// What a step presented since the clock last started, which activity dismisses.
    private(set) var presented: String?
    /// When the clock started: the daemon's start, or the reload that added the tree.
    private var started: Duration
    /// When the last inhibitor ended.
    private var uninhibited: Duration?
    /// logind's `IdleSinceHint` while logind says the session is idle.
    private var systemIdleSince: Duration?
    /// When logind last said the session is idle: activity and inhibitors before count no more.
    private var systemIdleSaid: Duration?
    /// The steps that have fired since the clock last started.
    private(set) var fired = 0
    /// The inhibitors held on the tree.
    private(set) var inhibitors = 0
    /// Tells a timer that was replaced by a later one to do nothing.
    private var generation = 0

    /// Creates the clock of a tree and starts it.
    /// - Parameters:
    ///   - mark: Where the tree's activity is recorded.
    ///   - steps: The tree's idle steps, in rising order of `after`.
    ///   - timer: The clock and its timers.
    ///   - fire: Carries out a step.
    ///   - dismiss: Dismisses what a step presented, by its identifier.
    init(
        mark: ActivityMark, steps: [IdleStep], timer: any IdleTimer, fire: @escaping @MainActor (IdleStep.Action) -> Void,
        dismiss: @escaping @MainActor (String) -> Void
    ) {
        self.mark = mark
        self.steps = steps
        self.timer = timer
        self.fire = fire
        self.dismiss = dismiss
        self.started = timer.now
        schedule()
    }

    /// Where the clock runs from now.
    var since: Duration {
        [mark.lastActivity, uninhibited].compactMap(\.self).filter { time in systemIdleSaid.map { time > $0 } ?? true }
            .reduce(systemIdleSince ?? started) { max($0, $1) }
    }

    /// How long the tree has been idle.
    var idleFor: Duration { max(.zero, timer.now - since) }

    /// The step that fires next; nil when all have fired.
    var nextStep: IdleStep? { fired < steps.count ? steps[fired] : nil }

    /// How long until the next step fires; nil when all have fired or an inhibitor holds it.
    var nextStepIn: Duration? {
        guard inhibitors == 0, let step = nextStep else { return nil }
        return max(.zero, since + .seconds(step.after) - timer.now)
    }

    /// Takes new steps, when the tree file is reloaded: the clock goes on, and no step fires
    /// again that had fired.
    func replaceSteps(_ steps: [IdleStep]) {
        self.steps = steps
        fired = min(fired, steps.count)
        schedule()
    }

    /// Someone used the screen: the clock starts again, and what a step presented goes.
    func activity() {
        _ = mark.record(at: timer.now)
        if let presented {
            self.presented = nil
            dismiss(presented)
        }
        restart()
    }

    /// Takes a presentation as a step's, when the daemon finds one presented at its start (it
    /// was restored) that a step of the tree presents: the next activity dismisses it.
    /// - Parameter identifier: The presented controller's identifier.
    func adopt(presented identifier: String) {
        presented = identifier
        mark.setQuiet(false)
    }

    /// What logind says of the session: idle for a time, or not (nil). Its turning active
    /// counts as activity.
    func systemIdle(for duration: Duration?) {
        guard let duration else {
            let wasIdle = systemIdleSince != nil
            systemIdleSince = nil
            systemIdleSaid = nil
            if wasIdle { activity() }
            return
        }
        systemIdleSaid = timer.now
        systemIdleSince = timer.now - duration
        schedule()
    }

    /// An inhibitor was taken on the tree: no step fires until the last one ends.
    func inhibit() {
        inhibitors += 1
        generation += 1
    }

    /// An inhibitor ended; the clock starts again when it was the last.
    func release() {
        inhibitors = max(0, inhibitors - 1)
        guard inhibitors == 0 else { return }
        uninhibited = timer.now
        restart()
    }

    /// Stops the timer for good, when the tree is gone.
    func stop() {
        generation += 1
        steps = []
    }

    private func restart() {
        fired = 0
        mark.setQuiet(presented == nil)
        schedule()
    }

    /// Sets the timer for the next step's deadline.
    private func schedule() {
        generation += 1
        guard inhibitors == 0, let delay = nextStepIn else { return }
        let generation = self.generation
        timer.schedule(after: delay) { [weak self] in
            guard let self, generation == self.generation else { return }
            self.fireDueSteps()
        }
    }

    /// Fires every step whose deadline has passed, in order, then waits for the next.
    private func fireDueSteps() {
        // Marked before the deadline is read again, so that an activity recorded on another
        // thread meanwhile either moves the deadline read here or finds the mark and comes to
        // the main actor.
        mark.setQuiet(false)
        while let delay = nextStepIn, delay == .zero, let step = nextStep {
            fired += 1
            guard let action = step.action else { continue }
            if case .present(let identifier) = action { presented = identifier }
            fire(action)
        }
        if fired == 0, presented == nil { mark.setQuiet(true) }
        schedule()
    }
}
