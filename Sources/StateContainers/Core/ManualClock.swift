import Synchronization

/// A clock that moves only when told to: transitions scheduled on a ``Window`` using it
/// finish exactly when ``advance(by:)`` passes their deadline, before it returns.
public final class ManualClock: SchedulingClock, Sendable {
    /// A moment on a ``ManualClock``: the time advanced since it was created.
    public struct Instant: InstantProtocol {
        /// The time since the clock started.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
    }

    private let state = Mutex(State())
    @MainActor private var actions: [(deadline: Instant, sequence: Int, action: @MainActor () -> Void)] = []
    @MainActor private var sequence = 0

    /// Creates a clock at offset zero.
    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                guard deadline > state.now else { return true }
                state.sleepers.append(Sleeper(deadline: deadline, continuation: continuation))
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Moves the clock forward, running each scheduled action whose deadline is reached,
    /// in deadline order, and waking sleepers.
    /// - Parameter duration: How far to move; negative durations do nothing.
    @MainActor public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        let target = now.advanced(by: duration)
        while let next = actions.indices.filter({ actions[$0].deadline <= target })
            .min(by: { (actions[$0].deadline, actions[$0].sequence) < (actions[$1].deadline, actions[$1].sequence) })
        {
            let entry = actions.remove(at: next)
            state.withLock { $0.now = max($0.now, entry.deadline) }
            entry.action()
        }
        let due = state.withLock { state in
            state.now = target
            let due = state.sleepers.filter { $0.deadline <= target }
            state.sleepers.removeAll { $0.deadline <= target }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Runs `action` once the clock is advanced past `duration` from now, in the order of
    /// the deadlines, and of the calls for equal deadlines.
    /// - Parameters:
    ///   - duration: How far the clock must advance.
    ///   - action: What to run then.
    @MainActor public func schedule(after duration: Duration, _ action: @escaping @MainActor () -> Void) {
        sequence += 1
        actions.append((now.advanced(by: duration), sequence, action))
    }
}
