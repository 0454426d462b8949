import AppStateIPC
import Glibc
import Logging
import ServicePorts
import Synchronization
import WaylandOutputs

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
    /// The pipe ``stop()`` wakes the thread with.
    private let wake = WakePipe()

    /// Creates the follower; nothing runs before ``start()``.
    /// - Parameters:
    ///   - followed: The outputs the trees follow, for the status.
    ///   - logger: Where changes of the connection go.
    ///   - deliver: Called on the follower's thread with each new layout.
    init(following followed: [FollowedOutput], logger: Logger, deliver: @escaping @Sendable (OutputLayout) -> Void) {
        report = FollowerReport(name: "output", logger: logger)
        state = Mutex(State(followed: followed))
        self.deliver = deliver
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
        guard wake.isOpen else { throw OutputError("cannot make the pipe that stops the output follower") }
        let result = DetachedThread.start { self.run() }
        guard result == 0 else { throw OutputError("cannot start the thread of the output follower (\(String(cString: strerror(result))))") }
    }

    package func stop() async {
        if !stopping.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
        await report.waitUntilFinished()
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        report.runAttempts(while: !isStopping, waiting: wake.wait) { backoff in
            let connection = try WaylandConnection()
            try follow(connection) { backoff.reset() }
        }
    }

    /// Runs the event loop until the connection breaks or the follower stops.
    /// - Parameter connected: Called once the compositor's first state is in.
    private func follow(_ connection: WaylandConnection, connected: () -> Void) throws(OutputError) {
        try connection.run(waking: wake.readEnd) {
            if let layout = connection.takeChange() {
                let detail = state.withLock { state in
                    state.layout = layout
                    return layout.describe(state.followed)
                }
                deliver(layout)
                report.report(.following(detail))
                connected()
            }
            return !isStopping
        } woken: {
            false
        }
    }
}
