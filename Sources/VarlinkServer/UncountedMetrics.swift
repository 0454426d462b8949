import ServicePorts

/// The server's metrics, dropped: for a service that is run, not monitored (the
/// certification, appstate-kiosk's status socket).
package struct UncountedMetrics: ServerMetrics {
    /// The metrics.
    package init() {}

    package func countRequest(_ method: String, error: String?) {}

    package func countConnectionError(_ error: String) {}

    package func countWatcherCut() {}

    package func recordFanOut(_ duration: Duration) {}
}
