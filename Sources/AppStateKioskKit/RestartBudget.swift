/// The restarts a window of time allows: one more than `KioskRecovery.maximumRestarts` within
/// `restartWindow` is refused.
struct RestartBudget {
    private let limit: Int
    private let window: Duration
    private var restarts: [ContinuousClock.Instant] = []

    init(limit: Int, window: Duration) {
        self.limit = limit
        self.window = window
    }

    /// Takes a restart at `now`, if the window has room for it.
    /// - Returns: False when the window's restarts are used up.
    mutating func take(at now: ContinuousClock.Instant) -> Bool {
        restarts.removeAll { now - $0 >= window }
        guard restarts.count < limit else { return false }
        restarts.append(now)
        return true
    }
}
