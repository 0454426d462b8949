/// What a server counts, for whoever keeps the metrics: the calls it answers itself, errors
/// that close connections, watchers cut off, and how long each change took to reach a lane's watchers.
public protocol ServerMetrics: Sendable {
    /// Counts one answered call.
    /// - Parameters:
    ///   - method: The call's fully-qualified method name.
    ///   - error: The name of the error it was answered with; nil when it succeeded.
    func countRequest(_ method: String, error: String?)

    /// Counts an error reply sent because of the connection itself (too many connections, a
    /// message too large, a watcher too slow).
    /// - Parameter error: The error's fully-qualified name.
    func countConnectionError(_ error: String)

    /// Counts a watcher cut off because it did not read its replies.
    func countWatcherCut()

    /// Records how long a change took from being published to its writes being issued on
    /// one lane.
    /// - Parameter duration: The time taken.
    func recordFanOut(_ duration: Duration)
}
