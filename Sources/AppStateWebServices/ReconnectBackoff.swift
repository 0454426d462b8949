/// The one rule by which the web front-ends reach the daemon again: the first attempt after a
/// connection is lost waits ``first``, each failed one doubles the wait up to ``maximum``, and
/// a connection that works starts the count again. A daemon that restarts is followed again at
/// once; one that stays away is asked no more than once per ``maximum``.
public struct ReconnectBackoff: Hashable, Sendable {
    /// The wait before the first attempt after a loss.
    public let first: Duration
    /// The longest wait between attempts.
    public let maximum: Duration
    private var current: Duration

    /// Creates the rule.
    /// - Parameters:
    ///   - first: The wait before the first attempt after a loss.
    ///   - maximum: The longest wait; at least `first`.
    public init(first: Duration = .milliseconds(50), maximum: Duration = .seconds(1)) {
        self.first = first
        self.maximum = Swift.max(first, maximum)
        current = first
    }

    /// The wait before the next attempt; each call doubles the one after, up to ``maximum``.
    public mutating func nextDelay() -> Duration {
        defer { current = Swift.min(current * 2, maximum) }
        return current
    }

    /// Starts again from ``first``: a connection worked.
    public mutating func reset() {
        current = first
    }
}
