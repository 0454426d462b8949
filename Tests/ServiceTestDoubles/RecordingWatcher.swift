import AppStateIPC
import ServicePorts

/// A lane that records what it is handed instead of hopping to a thread.
package final class RecordingLane: WatcherLane, @unchecked Sendable {
    /// What it was handed, in order.
    package private(set) var sends: [(frame: [UInt8], watchers: [RecordingWatcher])] = []

    /// A lane with nothing handed to it yet.
    package init() {}

    package func send(_ frame: [UInt8], to watchers: [RecordingWatcher], published: ContinuousClock.Instant) {
        sends.append((frame, watchers))
    }

    /// The `Watch` replies handed over since the last call, decoded.
    package func takeReplies() throws -> [Watch.Reply] {
        defer { sends = [] }
        return try sends.map { try Watch.Reply(parameters: VarlinkReply(frame: Array($0.frame.dropLast())).parameters) }
    }
}

/// A watcher that records being closed, on a ``RecordingLane``.
package final class RecordingWatcher: WatcherSink, @unchecked Sendable {
    /// Its lane.
    package let lane: RecordingLane
    /// Set by the test from the main actor; tells the host at once, as the connection's close
    /// would after a hop.
    package var isClosed = false {
        didSet {
            guard isClosed, !oldValue else { return }
            MainActor.assumeIsolated { for handler in closeHandlers { handler() } }
        }
    }
    /// How many times it was closed.
    package private(set) var closeCount = 0
    /// Whether the host asked that the stream end with the peer's input.
    package private(set) var endsWithInput = false
    private var closeHandlers: [@MainActor @Sendable () -> Void] = []

    /// A watcher on a lane.
    /// - Parameter lane: The lane.
    package init(lane: RecordingLane) {
        self.lane = lane
    }

    package func close() {
        closeCount += 1
        isClosed = true
    }

    package func endWithInput() {
        endsWithInput = true
    }

    package func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void) {
        closeHandlers.append(body)
    }
}
