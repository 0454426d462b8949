/// The watchers written from one thread, such as one event loop of the server. The host
/// encodes each change once and hands the bytes to every lane with watchers of what changed, so
/// that a change costs one thread hop per lane rather than one per watcher.
public protocol WatcherLane: AnyObject, Sendable {
    /// The watchers this lane writes to.
    associatedtype Watcher: WatcherSink

    /// Sends one reply to watchers of this lane, in one hop to the lane's thread.
    /// - Parameters:
    ///   - frame: The reply, NUL-terminated, shared by every lane without copying.
    ///   - watchers: Watchers whose ``WatcherSink/lane`` is this lane.
    ///   - published: When the host began publishing the change, from which the lane
    ///     measures its fan-out.
    func send(_ frame: [UInt8], to watchers: [Watcher], published: ContinuousClock.Instant)
}
