/// How long a follower waits before it tries its bus again: doubling from
/// ``initial`` up to ``maximum``, back to ``initial`` once a connection succeeds, so that
/// a bus that is gone for long costs a try every few seconds and one that comes back is
/// found soon.
struct Backoff: Sendable {
    /// The first wait.
    static let initial: Duration = .milliseconds(100)
    /// The longest wait.
    static let maximum: Duration = .seconds(5)

    private var next = Backoff.initial

    /// The wait before the next try; each call doubles the one after it.
    mutating func nextDelay() -> Duration {
        defer { next = min(next * 2, Self.maximum) }
        return next
    }

    /// Starts again from ``initial``, after a success.
    mutating func reset() {
        next = Self.initial
    }
}
