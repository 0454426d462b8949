import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#endif

/// Counts open connections across event loops, in all and per user, to enforce
/// ``ServerLimits/maximumConnections`` and ``ServerLimits/maximumConnectionsPerUser``.
public final class ConnectionCounter: Sendable {
    private struct Counts {
        var total = 0
        var perUser: [UInt32: Int] = [:]
    }

    // A pthread mutex (NIOLockedValueBox) rather than Synchronization.Mutex, whose futex-based
    // lock ThreadSanitizer cannot see on Linux: it would report every access here as a race.
    private let counts = NIOLockedValueBox(Counts())

    /// The users whose connections are not counted per user: root, and the daemon's own user,
    /// which a service manager or an administrator uses to reach it.
    private let uncountedUsers: Set<UInt32> = [0, getuid()]

    /// Creates a counter of no connections.
    public init() {}

    /// Takes a place if one is free.
    /// - Parameter limit: The number of places.
    /// - Returns: Whether a place was taken (and must be given back with ``release()``).
    func acquire(limit: Int) -> Bool {
        counts.withLockedValue { counts in
            guard counts.total < limit else { return false }
            counts.total += 1
            return true
        }
    }

    /// Gives a place back.
    func release() {
        counts.withLockedValue { $0.total -= 1 }
    }

    /// Takes one of a user's places if one is free; root and the daemon's user always get one.
    /// - Parameters:
    ///   - user: The peer's uid.
    ///   - limit: The number of places each user has.
    /// - Returns: Whether the connection may stay (and must give its place back with
    ///   ``release(user:)``).
    func acquire(user: UInt32, limit: Int) -> Bool {
        guard !uncountedUsers.contains(user) else { return true }
        return counts.withLockedValue { counts in
            let held = counts.perUser[user, default: 0]
            guard held < limit else { return false }
            counts.perUser[user] = held + 1
            return true
        }
    }

    /// Gives one of a user's places back.
    /// - Parameter user: The uid given to ``acquire(user:limit:)``.
    func release(user: UInt32) {
        guard !uncountedUsers.contains(user) else { return }
        counts.withLockedValue { counts in
            let held = counts.perUser[user, default: 1] - 1
            counts.perUser[user] = held > 0 ? held : nil
        }
    }

    /// The number of open connections.
    public var current: Int { counts.withLockedValue { $0.total } }
}
