import AppStateIPC
import CoreMetrics
import Prometheus
import ServicePorts
import Synchronization

/// What the daemon counts for a fleet's Prometheus, counted with swift-metrics into one
/// Prometheus registry and read with ``exposition(connections:watchers:frontEndsUp:)``
/// (`GetMetrics`).
///
/// The counters on the paths of calls are swift-metrics handles made once, each an atomic
/// add when counted: a call that succeeds costs one dictionary lookup and one add. Label
/// values come only from the interface's closed sets of methods, errors and front-end kinds,
/// and from the tree file's tree names, so no client can grow the registry by sending names
/// of its own. The gauges (connections, watchers, front-ends up) are read when the
/// exposition is asked for, so keeping them costs nothing in between.
package final class DaemonMetrics: ServerMetrics {
    /// The series names, for the documentation and the tests.
    package enum Name {
        /// Calls answered, by `method` and `outcome` (`ok` or the error's name).
        package static let requests = "appstate_requests_total"
        /// Error replies sent, by `error`: those of calls, and those that close a connection
        /// (`TooManyConnections`, `MessageTooLarge`, `WatcherTooSlow`).
        package static let errors = "appstate_errors_total"
        /// Open connections.
        package static let connections = "appstate_connections"
        /// `Watch` streams.
        package static let watchers = "appstate_watchers"
        /// Watchers cut off with `WatcherTooSlow`.
        package static let watchersCut = "appstate_watchers_cut_total"
        /// Seconds from a commit that needs a write to its state being durable.
        package static let commitSeconds = "appstate_commit_seconds"
        /// Commits made durable by one write of the state file (group commit).
        package static let commitBatchSize = "appstate_commit_batch_size"
        /// Seconds from an event published on the main actor to one lane (event loop) having
        /// issued its writes to all its watchers.
        package static let fanOutSeconds = "appstate_fanout_seconds"
        /// Front-ends' recoveries the daemon heard of, by `tree` and `recovery` (`reload`, a
        /// page loaded again, or `restart`, a browser started again): the rises of the
        /// counts in their reports.
        package static let frontEndRecoveries = "appstate_frontend_recoveries_total"
        /// Front-ends that are not down, by `tree` and `kind` (`kiosk` or `page`).
        package static let frontEndsUp = "appstate_frontends_up"
    }

    /// The label value of a method or error the interface does not declare.
    static let undeclared = "undeclared"

    private let registry: PrometheusCollectorRegistry
    private let factory: any MetricsFactory
    /// The `ok` counter of every declared method, made once.
    private let succeeded: [String: CoreMetrics.Counter]
    private let connections: CoreMetrics.Gauge
    private let watchers: CoreMetrics.Gauge
    private let watchersCut: CoreMetrics.Counter
    private let commitSeconds: CoreMetrics.Timer
    private let commitBatchSize: CoreMetrics.Recorder
    private let fanOutSeconds: CoreMetrics.Timer
    /// Every call answered, counted on whichever thread answered it.
    private let requests = Atomic(0)
    /// The trees and kinds whose front-ends up were recorded, so that a tree a reload took
    /// away reads 0 rather than what it last had.
    private let frontEndSeries = Mutex<Set<[String]>>([])

    /// Creates the metrics of a daemon in a registry of their own.
    package convenience init() {
        let registry = PrometheusCollectorRegistry()
        self.init(registry: registry, factory: Self.factory(for: registry))
    }

    /// Creates the metrics of a daemon.
    /// - Parameters:
    ///   - registry: Where the series are kept and read from.
    ///   - factory: Makes the series in `registry`: ``factory(for:)``, or the metrics
    ///     system bootstrapped with it.
    package init(registry: PrometheusCollectorRegistry, factory: any MetricsFactory) {
        self.registry = registry
        self.factory = factory
        let methods = AppStateMethod.allCases.map(\.rawValue) + VarlinkServiceMethod.allCases.map(\.rawValue)
        succeeded = Dictionary(
            uniqueKeysWithValues: methods.map { method in
                (method, CoreMetrics.Counter(label: Name.requests, dimensions: [("method", method), ("outcome", "ok")], factory: factory))
            })
        connections = CoreMetrics.Gauge(label: Name.connections, factory: factory)
        watchers = CoreMetrics.Gauge(label: Name.watchers, factory: factory)
        watchersCut = CoreMetrics.Counter(label: Name.watchersCut, factory: factory)
        commitSeconds = CoreMetrics.Timer(label: Name.commitSeconds, factory: factory)
        commitBatchSize = CoreMetrics.Recorder(label: Name.commitBatchSize, factory: factory)
        fanOutSeconds = CoreMetrics.Timer(label: Name.fanOutSeconds, factory: factory)
    }

    /// The factory that makes the daemon's series in a registry, with histogram buckets fit
    /// for each: fan-out takes microseconds, a commit an `fsync` or two, a batch up to the
    /// calls of many connections.
    /// - Parameter registry: Where the series go.
    /// - Returns: The factory, to pass to ``init(registry:factory:)`` or to bootstrap the
    ///   metrics system with.
    package static func factory(for registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [
            Name.fanOutSeconds: [10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 100_000].map { .microseconds($0) },
            Name.commitSeconds: [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500].map { .microseconds($0 * 1_000) },
        ]
        factory.valueHistogramBuckets = [Name.commitBatchSize: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1_024]]
        return factory
    }

    /// Counts one answered call.
    /// - Parameters:
    ///   - method: The call's fully-qualified method name.
    ///   - error: The name of the error it was answered with; nil when it succeeded.
    package func countRequest(_ method: String, error: String?) {
        requests.add(1, ordering: .relaxed)
        guard let error else {
            // Only declared methods succeed: every other call is answered with an error.
            succeeded[method]?.increment()
            return
        }
        let name = Self.declared(error: error)
        let label = succeeded[method] == nil ? Self.undeclared : method
        CoreMetrics.Counter(label: Name.requests, dimensions: [("method", label), ("outcome", name)], factory: factory).increment()
        CoreMetrics.Counter(label: Name.errors, dimensions: [("error", name)], factory: factory).increment()
    }

    /// The calls answered so far, for `GetStats`.
    package var requestCount: Int { requests.load(ordering: .relaxed) }

    /// Counts an error reply that is not the answer to a call, such as one sent before a
    /// connection is closed.
    /// - Parameter error: The error's fully-qualified name.
    package func countConnectionError(_ error: String) {
        CoreMetrics.Counter(label: Name.errors, dimensions: [("error", Self.declared(error: error))], factory: factory).increment()
    }

    /// Counts a watcher cut off for reading too slowly, and its `WatcherTooSlow`.
    package func countWatcherCut() {
        watchersCut.increment()
        CoreMetrics.Counter(label: Name.errors, dimensions: [("error", AppStateErrorName.watcherTooSlow.rawValue)], factory: factory).increment()
    }

    /// Records one write of the state file.
    /// - Parameter commits: How many commits it made durable.
    package func recordWrite(commits: Int) {
        commitBatchSize.record(commits)
    }

    /// Records how long one commit waited for its state to be durable.
    /// - Parameter duration: From the commit to its write's end.
    package func recordCommit(_ duration: Duration) {
        commitSeconds.recordNanoseconds(duration.nanoseconds)
    }

    /// Records one event's fan-out on one lane.
    /// - Parameter duration: From the event's publication to the lane's writes issued.
    package func recordFanOut(_ duration: Duration) {
        fanOutSeconds.recordNanoseconds(duration.nanoseconds)
    }

    /// Counts the recoveries a front-end's report adds.
    /// - Parameters:
    ///   - tree: The front-end's tree.
    ///   - reloads: The page loads again since its previous report.
    ///   - restarts: The browser starts again since its previous report.
    package func countRecoveries(tree: String, reloads: Int, restarts: Int) {
        for (recovery, count) in [("reload", reloads), ("restart", restarts)] where count > 0 {
            // A report's counts are a client's word: one absurd rise must not wrap the counter.
            CoreMetrics.Counter(label: Name.frontEndRecoveries, dimensions: [("tree", tree), ("recovery", recovery)], factory: factory)
                .increment(by: min(count, Int(Int32.max)))
        }
    }

    /// Renders every series in the Prometheus text exposition format (version 0.0.4).
    /// - Parameters:
    ///   - connections: The open connections now.
    ///   - watchers: The `Watch` streams now.
    ///   - frontEndsUp: The front-ends that are not down now, by tree and kind, every kind of
    ///     every tree listed.
    /// - Returns: The exposition.
    package func exposition(connections: Int, watchers: Int, frontEndsUp: [(tree: String, kind: String, count: Int)] = []) -> String {
        self.connections.record(connections)
        self.watchers.record(watchers)
        let gone = frontEndSeries.withLock { series in
            let now = Set(frontEndsUp.map { [$0.tree, $0.kind] })
            defer { series = now }
            return series.subtracting(now)
        }
        for (tree, kind, count) in frontEndsUp.map({ ($0.tree, $0.kind, $0.count) }) + gone.map({ ($0[0], $0[1], 0) }) {
            CoreMetrics.Gauge(label: Name.frontEndsUp, dimensions: [("tree", tree), ("kind", kind)], factory: factory).record(count)
        }
        return registry.emitToString()
    }

    /// An error's name as a label value: one the interfaces declare, else ``undeclared``.
    private static func declared(error name: String) -> String {
        AppStateErrorName(rawValue: name) != nil || VarlinkServiceErrorName(rawValue: name) != nil ? name : undeclared
    }
}

extension Duration {
    /// The whole duration in nanoseconds, as swift-metrics' timers take it.
    fileprivate var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
