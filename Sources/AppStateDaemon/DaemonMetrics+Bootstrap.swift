import AppStateHost
import CoreMetrics
import Prometheus

extension DaemonMetrics {
    /// Bootstraps the process's swift-metrics system with a Prometheus registry and makes the
    /// daemon's metrics through it, so that whatever a library counts with swift-metrics is
    /// in `GetMetrics` beside the daemon's own. swift-metrics allows one bootstrap per process:
    /// the daemon calls this once as it starts; tests make their metrics with ``init()``.
    /// - Returns: The daemon's metrics, in the bootstrapped registry.
    static func bootstrap() -> DaemonMetrics {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(factory(for: registry))
        return DaemonMetrics(registry: registry, factory: MetricsSystem.factory)
    }
}
