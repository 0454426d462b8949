import NIOConcurrencyHelpers

/// Counts open connections across event loops, to enforce ``ServerLimits/maximumConnections``.
final class ConnectionCounter: Sendable {
    // A pthread mutex (NIOLockedValueBox) rather than Synchronization.Mutex, whose futex-based
    // lock ThreadSanitizer cannot see on Linux: it would report every access here as a race.
    private let count = NIOLockedValueBox(0)

    /// Takes a place if one is free.
    /// - Parameter limit: The number of places.
    /// - Returns: Whether a place was taken (and must be given back with ``release()``).
    func acquire(limit: Int) -> Bool {
        count.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a place back.
    func release() {
        count.withLockedValue { $0 -= 1 }
    }

    /// The number of open connections.
    var current: Int { count.withLockedValue { $0 } }
}
