import AppStateCore
import AppStateCtlKit
import AppStateIPC
import NIOConcurrencyHelpers
import ServiceLifecycle
import Synchronization

/// Follows one tree or subtree of the daemon through `Watch`, on a thread of its own (the
/// client's reads block), for as long as it runs: when the daemon cannot be reached or ends
/// the stream, it says so and connects again by the ``ReconnectBackoff`` rule, so that a web
/// front-end outlives a daemon restart.
///
/// It keeps a copy of the tree, applying each reply's changes, and hands every reply over
/// with the whole tree after it; a change that does not fit the copy is treated as a lost
/// connection, whose next snapshot replaces the copy. Stopping closes the connection, which
/// wakes the thread at once, wherever it waits. As a `Service`, it runs until the group's
/// graceful shutdown.
public final class WatchFollower: Service, Sendable {
    /// What the follower reports, in order, from its thread.
    public enum Update: Sendable {
        /// The daemon answered the `Watch`: a reply follows.
        case connected
        /// A reply, with the whole (sub)tree after it. The first of each connection carries
        /// the snapshot (`reply.root`).
        case reply(Watch.Reply, tree: Node)
        /// The connection is lost or could not be made: the reason, as a sentence that says
        /// the follower tries again.
        case disconnected(String)
        /// The daemon refused the `Watch` itself, such as for a path that names no node. The
        /// follower tries again unless ``stop()`` is called.
        case refused(VarlinkError)
    }

    /// The daemon's socket.
    public let socketPath: String
    /// The tree; the daemon's first when `nil`.
    public let tree: String?
    /// The subtree's path; the whole tree when `nil`.
    public let path: String?

    private let backoff: ReconnectBackoff
    private let report: @Sendable (Update) -> Void
    /// The connection while there is one, and whether the follower was stopped: stopping
    /// closes the connection, which wakes the thread's read.
    private let connection = Mutex<(client: VarlinkClient?, stopped: Bool)>((nil, false))
    /// True once stopped, so that a wait between attempts ends at once.
    private let stopping = ConditionLock(value: false)

    /// Creates a follower; nothing happens before ``start()`` or ``run()``.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - tree: The tree; the daemon's first when `nil`.
    ///   - path: The subtree's path; the whole tree when `nil`.
    ///   - backoff: When to try again after a loss.
    ///   - report: Called with each update, in order, from the follower's thread.
    public init(
        socketPath: String, tree: String? = nil, path: String? = nil, backoff: ReconnectBackoff = ReconnectBackoff(),
        report: @escaping @Sendable (Update) -> Void
    ) {
        self.socketPath = socketPath
        self.tree = tree
        self.path = path
        self.backoff = backoff
        self.report = report
    }

    /// Starts following, on a thread of its own.
    public func start() {
        if DetachedThread.start({ [self] in follow() }) != 0 {
            report(.disconnected("cannot start a thread to follow appstated"))
        }
    }

    /// Stops following: closes the connection, and no update comes after the one being made.
    public func stop() {
        connection.withLock { connection in
            connection.stopped = true
            connection.client?.close()
        }
        stopping.lock()
        stopping.unlock(withValue: true)
    }

    /// Follows from now until the service group's graceful shutdown (or cancellation), then stops.
    public func run() async {
        start()
        try? await gracefulShutdown()
        stop()
    }

    private var isStopped: Bool {
        connection.withLock { $0.stopped }
    }

    private func follow() {
        var backoff = backoff
        while !isStopped {
            do {
                try followOnce(resetting: &backoff)
                if isStopped { return }
                report(.disconnected("appstated ended the Watch stream; reconnecting"))
            } catch let error as VarlinkError {
                if isStopped { return }
                report(.refused(error))
            } catch {
                if isStopped { return }
                report(.disconnected(CtlError(error).message + "; retrying"))
            }
            connection.withLock { $0.client = nil }
            if stopping.lock(whenValue: true, timeoutSeconds: Self.seconds(backoff.nextDelay())) {
                stopping.unlock()
            }
        }
    }

    /// One connection, from its first reply to its end.
    private func followOnce(resetting backoff: inout ReconnectBackoff) throws {
        // No time limit: a Watch waits for changes as long as there are none.
        let client = try VarlinkClient(path: socketPath, timeout: nil)
        let stopped = connection.withLock { connection in
            connection.client = client
            return connection.stopped
        }
        if stopped { return client.close() }
        var replies = try client.stream(method: Watch.name, parameters: Watch.Parameters(tree: tree, path: path).parameters)
        var copy: Node?
        while let reply = try replies.next(as: Watch.self) {
            if copy == nil {
                backoff.reset()
                report(.connected)
            }
            guard let tree = reply.root ?? (try? copy?.applying(reply)) else { throw MisfitChange() }
            copy = tree
            report(.reply(reply, tree: tree))
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A change that does not fit the copy, which leaves it stale: the follower connects
    /// again, from a new snapshot.
    private struct MisfitChange: Error, CustomStringConvertible {
        var description: String { "appstated sent a change that does not fit the tree" }
    }
}
