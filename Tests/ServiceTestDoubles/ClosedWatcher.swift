import ServicePorts

/// A `Watch` stream whose connection is already gone: the hub forgets it at the first
/// change, so nothing is ever sent.
public final class ClosedWatcher: WatcherSink {
    /// Its lane, which sends nothing.
    public let lane = Lane()
    /// Always: the connection is gone.
    public var isClosed: Bool { true }

    /// A watcher whose connection is gone.
    public init() {}

    public func close() {}

    public func whenClosed(_ body: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in body() }
    }

    /// A lane that sends nothing.
    public final class Lane: WatcherLane {
        public func send(_ frame: [UInt8], to watchers: [ClosedWatcher], published: ContinuousClock.Instant) {}
    }
}
