import NIOConcurrencyHelpers
import ServicePorts

/// Counts what a server reports, for tests of the server alone.
public final class RecordingServerMetrics: ServerMetrics {
    private struct Counts {
        var requests: [(method: String, error: String?)] = []
        var connectionErrors: [String] = []
        var watchersCut = 0
        var fanOuts = 0
    }

    private let counts = NIOLockedValueBox(Counts())

    /// Metrics with nothing counted yet.
    public init() {}

    /// The calls counted, with the error each was answered with.
    public var requests: [(method: String, error: String?)] { counts.withLockedValue { $0.requests } }
    /// The errors counted that closed a connection.
    public var connectionErrors: [String] { counts.withLockedValue { $0.connectionErrors } }
    /// The watchers cut off.
    public var watchersCut: Int { counts.withLockedValue { $0.watchersCut } }
    /// The fan-outs timed.
    public var fanOuts: Int { counts.withLockedValue { $0.fanOuts } }

    public func countRequest(_ method: String, error: String?) {
        counts.withLockedValue { $0.requests.append((method, error)) }
    }

    public func countConnectionError(_ error: String) {
        counts.withLockedValue { $0.connectionErrors.append(error) }
    }

    public func countWatcherCut() {
        counts.withLockedValue { $0.watchersCut += 1 }
    }

    public func recordFanOut(_ duration: Duration) {
        counts.withLockedValue { $0.fanOuts += 1 }
    }
}
