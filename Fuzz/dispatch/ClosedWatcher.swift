@testable import AppStateService

/// A `Watch` stream whose connection is already gone, for the ``ConnectionContext`` calls
/// need: the hub forgets it at the first change, so nothing is ever sent.
final class ClosedWatcher: WatcherSink {
    static let shared = ClosedWatcher()

    let lane = Lane()
    var isClosed: Bool { true }
    func close() {}
    func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in body() }
    }

    final class Lane: WatcherLane {
        func send(_ frame: [UInt8], to watchers: [ClosedWatcher], published: ContinuousClock.Instant) {}
    }
}
