import ServicePorts

/// A `Watch` stream whose connection is already gone: the hub forgets it at the first
/// change, so nothing is ever sent.
package final class ClosedWatcher: WatcherSink {
    /// Its lane, which sends nothing.
    package let lane = Lane()
    /// Always: the connection is gone.
    package var isClosed: Bool { true }

    /// A watcher whose connection is gone.
    package init() {}

    package func close() {}

    package func endWithInput() {}

    package func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in body() }
    }

    /// A lane that sends nothing.
    package final class Lane: WatcherLane {
        package func send(_ frame: [UInt8], to watchers: [ClosedWatcher], published: ContinuousClock.Instant) {}
    }
}
