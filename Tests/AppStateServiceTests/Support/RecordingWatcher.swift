import AppStateIPC
@testable import AppStateService

/// A lane that records what it is handed instead of hopping to a thread.
final class RecordingLane: WatcherLane, @unchecked Sendable {
    private(set) var sends: [(frame: [UInt8], watchers: [RecordingWatcher])] = []

    func send(_ frame: [UInt8], to watchers: [RecordingWatcher], published: ContinuousClock.Instant) {
        sends.append((frame, watchers))
    }

    /// The `Watch` replies handed over since the last call, decoded.
    func takeReplies() throws -> [Watch.Reply] {
        defer { sends = [] }
        return try sends.map { try Watch.Reply(parameters: VarlinkReply(frame: Array($0.frame.dropLast())).parameters) }
    }
}

final class RecordingWatcher: WatcherSink, @unchecked Sendable {
    let lane: RecordingLane
    /// Set by the test from the main actor; tells the host at once, as the connection's close
    /// would after a hop.
    var isClosed = false {
        didSet {
            guard isClosed, !oldValue else { return }
            MainActor.assumeIsolated { for handler in closeHandlers { handler() } }
        }
    }
    private(set) var closeCount = 0
    private var closeHandlers: [@MainActor @Sendable () -> Void] = []

    init(lane: RecordingLane) {
        self.lane = lane
    }

    func close() {
        closeCount += 1
        isClosed = true
    }

    func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void) {
        closeHandlers.append(body)
    }
}
