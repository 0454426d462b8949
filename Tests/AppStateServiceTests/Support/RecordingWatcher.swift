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
    var isClosed = false
    private(set) var closeCount = 0

    init(lane: RecordingLane) {
        self.lane = lane
    }

    func close() {
        closeCount += 1
        isClosed = true
    }
}
