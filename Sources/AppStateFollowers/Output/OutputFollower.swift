import AppStateIPC
import Glibc
import Logging
import ServicePorts
import Synchronization

/// Follows the compositor's outputs on a thread of its own, as a Wayland client: it connects,
/// binds the outputs, and runs libwayland's event loop, waiting in `poll` on the connection
/// and on a pipe that ``stop()`` writes to. Each change of the outputs is handed over as an
/// ``OutputLayout``. When no compositor is there, or it goes away, it says so once in the log
/// and in its ``status``, keeps the last layout handed over (the trees keep their size), and
/// tries again with the ``Backoff`` the D-Bus followers use.
package final class OutputFollower: SystemFollower {
    private struct State {
        var followed: [FollowedOutput]
        var layout: OutputLayout?
    }

    package let name = "output"
    private let report: FollowerReport
    private let state: Mutex<State>
    private let stopping = Atomic(false)
    private let deliver: @Sendable (OutputLayout) -> Void
    /// The pipe ``stop()`` wakes the thread with: read end, write end; -1 when it could not be made.
    private let wake: (read: CInt, write: CInt)

    /// Creates the follower; nothing runs before ``start()``.
    /// - Parameters:
    ///   - followed: The outputs the trees follow, for the status.
    ///   - logger: Where changes of the connection go.
    ///   - deliver: Called on the follower's thread with each new layout.
    init(following followed: [FollowedOutput], logger: Logger, deliver: @escaping @Sendable (OutputLayout) -> Void) {
        report = FollowerReport(name: "output", logger: logger)
        state = Mutex(State(followed: followed))
        self.deliver = deliver
        wake = Self.makePipe()
    }

    deinit {
        if wake.read >= 0 { close(wake.read) }
        if wake.write >= 0 { close(wake.write) }
    }

    /// Where the follower stands: while it follows, each followed output and its size.
    package var status: FollowerCondition {
        let condition = report.condition
        guard condition.isConnected else { return condition }
        return state.withLock { state in state.layout.map { .following($0.describe(state.followed)) } ?? condition }
    }

    /// Takes the outputs the trees follow after a reload, for the status.
    package func follow(_ followed: [FollowedOutput]) {
        state.withLock { $0.followed = followed }
    }

    package func start() throws(OutputError) {
        guard wake.read >= 0 else { throw OutputError("cannot make the pipe that stops the output follower") }
        let result = DetachedThread.start { self.run() }
        guard result == 0 else { throw OutputError("cannot start the thread of the output follower (\(String(cString: strerror(result))))") }
    }

    package func stop() async {
        if !stopping.exchange(true, ordering: .acquiringAndReleasing) {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
        await report.waitUntilFinished()
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        report.runAttempts(while: !isStopping, waiting: wait) { backoff in
            let connection = try WaylandConnection()
            try follow(connection) { backoff.reset() }
        }
    }

    /// Runs the event loop until the connection breaks or the follower stops.
    /// - Parameter connected: Called once the compositor's first state is in.
    private func follow(_ connection: WaylandConnection, connected: () -> Void) throws(OutputError) {
        while !isStopping {
            try connection.dispatchPending()
            if let layout = connection.takeChange() {
                let detail = state.withLock { state in
                    state.layout = layout
                    return layout.describe(state.followed)
                }
                deliver(layout)
                report.report(.following(detail))
                connected()
            }
            try connection.prepareRead()
            let unsent: Bool
            do {
                unsent = try connection.flush()
            } catch {
                connection.cancelRead()
                throw error
            }
            var descriptors = [
                pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN) | (unsent ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) >= 0 else {
                connection.cancelRead()
                if errno == EINTR { continue }
                throw OutputError("cannot wait for the compositor (\(String(cString: strerror(errno))))")
            }
            if descriptors[1].revents != 0 {
                connection.cancelRead()
                return
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                try connection.readEvents()
            } else {
                connection.cancelRead()
            }
        }
    }

    /// A pipe that is closed on exec and never blocks; (-1, -1) when none can be made.
    private static func makePipe() -> (read: CInt, write: CInt) {
        var descriptors: [CInt] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return (-1, -1) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Waits before the next try, or until ``stop()``.
    private func wait(_ delay: Duration) {
        let (seconds, attoseconds) = delay.components
        var descriptor = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, CInt(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
