import Varlink

/// The server's metrics, dropped: for a service that is run, not monitored (the
/// certification, a status socket).
public struct UncountedMetrics: ServerMetrics {
    /// The metrics.
    public init() {}

    public func countRequest(_ method: String, error: String?) {}

    public func countConnectionError(_ error: String) {}

    public func countWatcherCut() {}

    public func recordFanOut(_ duration: Duration) {}
}
