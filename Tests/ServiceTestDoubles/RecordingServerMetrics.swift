import NIOConcurrencyHelpers
import ServicePorts

/// Counts what a server reports, for tests of the server alone.
package final class RecordingServerMetrics: ServerMetrics {
    private struct Counts {
        var requests: [(method: String, error: String?)] = []
        var connectionErrors: [String] = []
        var watchersCut = 0
        var fanOuts = 0
    }

    private let counts = NIOLockedValueBox(Counts())

    /// Metrics with nothing counted yet.
    package init() {}

    /// The calls counted, with the error each was answered with.
    package var requests: [(method: String, error: String?)] { counts.withLockedValue { $0.requests } }
    /// The errors counted that closed a connection.
    package var connectionErrors: [String] { counts.withLockedValue { $0.connectionErrors } }
    /// The watchers cut off.
    package var watchersCut: Int { counts.withLockedValue { $0.watchersCut } }
    /// The fan-outs timed.
    package var fanOuts: Int { counts.withLockedValue { $0.fanOuts } }

    package func countRequest(_ method: String, error: String?) {
        counts.withLockedValue { $0.requests.append((method, error)) }
    }

    package func countConnectionError(_ error: String) {
        counts.withLockedValue { $0.connectionErrors.append(error) }
    }

    package func countWatcherCut() {
        counts.withLockedValue { $0.watchersCut += 1 }
    }

    package func recordFanOut(_ duration: Duration) {
        counts.withLockedValue { $0.fanOuts += 1 }
    }
}
