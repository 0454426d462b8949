import Synchronization

/// Counts open connections across event loops, to enforce ``ServerLimits/maximumConnections``.
final class ConnectionCounter: Sendable {
    private let count = Mutex(0)

    /// Takes a place if one is free.
    /// - Parameter limit: The number of places.
    /// - Returns: Whether a place was taken (and must be given back with ``release()``).
    func acquire(limit: Int) -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a place back.
    func release() {
        count.withLock { $0 -= 1 }
    }

    /// The number of open connections.
    var current: Int { count.withLock { $0 } }
}
