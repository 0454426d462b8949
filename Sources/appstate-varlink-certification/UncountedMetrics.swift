import ServicePorts

/// The server's metrics, dropped: the certification is run, not monitored.
struct UncountedMetrics: ServerMetrics {
    func countRequest(_ method: String, error: String?) {}

    func countConnectionError(_ error: String) {}

    func countWatcherCut() {}

    func recordFanOut(_ duration: Duration) {}
}
