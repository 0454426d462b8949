import Logging
import ServicePorts
import Synchronization

/// The followers the daemon runs, kept to what the trees follow: one per logind seat some
/// tree follows, and then one that holds the daemon's idle inhibitor with logind; one for the
/// on-screen keyboard when asked for (``OnScreenKeyboard``'s, which `RequestKeyboard` asks the
/// keyboard through); one for the compositor's outputs while some tree follows an output.
/// All hand their news to one ``FollowedTrees``. A reload that changes the
/// seats or outputs the trees follow starts and stops followers to match (``follow(_:)``);
/// ``FollowerBoard`` shows them to `GetStats`.
package final class FollowerRoster: Sendable {
    private struct State {
        var seats: [String: BusFollower] = [:]
        var inhibitor: BusFollower?
        var keyboard: BusFollower?
        var output: OutputFollower?
        var running = false

        var all: [any SystemFollower] {
            var all: [any SystemFollower] = seats.keys.sorted().compactMap { seats[$0] }
            if let inhibitor { all.append(inhibitor) }
            if let keyboard { all.append(keyboard) }
            if let output { all.append(output) }
            return all
        }
    }

    private let followed: FollowedTrees
    /// The daemon's idle inhibitor with logind, held while some tree follows a seat.
    package let idleInhibitor = LogindIdleInhibitor()
    /// Locks the session of a seat some tree follows, for the trees' `lock` idle steps.
    package let sessionLocker: LogindSessionLocker
    /// The on-screen keyboard followed, which `RequestKeyboard` asks to show or hide itself;
    /// nil when none is.
    package let keyboard: OnScreenKeyboard?
    private let board: FollowerBoard
    private let logger: Logger
    private let state = Mutex(State())

    /// Makes the followers the routes and the keyboard call for, not yet started, and shows
    /// them on the board.
    /// - Parameters:
    ///   - host: The trees the followers change.
    ///   - runner: How the followers' news reaches the main actor.
    ///   - routes: The seat and the output each tree follows.
    ///   - keyboard: The on-screen keyboards to follow; nil for none.
    ///   - keyboardHeight: The keyboard's height, or nil for squeekboard's rule.
    ///   - board: Where `GetStats` finds the followers.
    ///   - logger: Where the followers log.
    package init(
        host: any FollowedHost, runner: any MainActorRunner, routes: FollowedRoutes, keyboard: OnScreenKeyboardChoice?,
        keyboardHeight: Double?, board: FollowerBoard, logger: Logger
    ) {
        let followed = FollowedTrees(host: host, runner: runner, routes: routes, keyboardHeight: keyboardHeight, logger: logger)
        self.followed = followed
        sessionLocker = LogindSessionLocker(logger: logger)
        self.board = board
        self.logger = logger
        let onScreenKeyboard = keyboard.map { OnScreenKeyboard(choice: $0, logger: logger) { followed.deliver(keyboardVisible: $0) } }
        self.keyboard = onScreenKeyboard
        state.withLock { $0.keyboard = onScreenKeyboard?.follower }
        _ = retarget(routes)
    }

    /// Starts every follower, each on its own thread; one that cannot start is logged and left out.
    package func start() {
        let followers = state.withLock { state in
            state.running = true
            return state.all
        }
        for follower in followers { start(follower) }
    }

    /// Stops every follower and waits for their threads to let go of their connections.
    package func stop() async {
        let followers = state.withLock { state in
            state.running = false
            return state.all
        }
        for follower in followers { await follower.stop() }
    }

    /// Takes what each tree follows after a reload: followers of seats and outputs no tree
    /// follows any more stop, new ones start, and every tree is brought to the latest news.
    package func follow(_ routes: FollowedRoutes) {
        let (started, stopped) = retarget(routes)
        for follower in started { start(follower) }
        if !stopped.isEmpty {
            Task { for follower in stopped { await follower.stop() } }
        }
        followed.follow(routes)
    }

    /// Makes and drops followers to match the routes.
    /// - Returns: The followers made while the roster runs, to start, and those dropped, to stop.
    private func retarget(_ routes: FollowedRoutes) -> (started: [any SystemFollower], stopped: [any SystemFollower]) {
        let followed = self.followed
        let logger = self.logger
        let idleInhibitor = self.idleInhibitor
        let sessionLocker = self.sessionLocker
        let (started, stopped, all) = state.withLock { state in
            var made: [any SystemFollower] = []
            var dropped: [any SystemFollower] = []
            let seats = Set(routes.seats.values)
            for (seat, follower) in state.seats where !seats.contains(seat) {
                dropped.append(follower)
                state.seats[seat] = nil
            }
            for seat in seats.sorted() where state.seats[seat] == nil {
                let source = LogindSource(
                    seat: seat, deliver: { followed.deliver($0, seat: seat) }, deliverIdle: { followed.deliver($0, seat: seat) },
                    locker: sessionLocker)
                let follower = BusFollower(source, logger: logger)
                state.seats[seat] = follower
                made.append(follower)
            }
            if seats.isEmpty, let inhibitor = state.inhibitor {
                dropped.append(inhibitor)
                state.inhibitor = nil
            } else if !seats.isEmpty, state.inhibitor == nil {
                let inhibitor = BusFollower(LogindInhibitorSource(wanted: idleInhibitor), logger: logger)
                state.inhibitor = inhibitor
                made.append(inhibitor)
            }
            let outputs = Self.outputs(in: routes)
            if outputs.isEmpty, let output = state.output {
                dropped.append(output)
                state.output = nil
            } else if let output = state.output {
                output.follow(outputs)
            } else if !outputs.isEmpty {
                let output = OutputFollower(following: outputs, logger: logger) { followed.deliver(outputs: $0) }
                state.output = output
                made.append(output)
            }
            return (state.running ? made : [], dropped, state.all)
        }
        board.show(all)
        return (started, stopped)
    }

    private func start(_ follower: any SystemFollower) {
        do {
            try follower.start()
        } catch {
            logger.error("\(follower.name) is not followed: \(error)")
        }
    }

    /// The outputs the trees follow, the first output first, then by name.
    private static func outputs(in routes: FollowedRoutes) -> [FollowedOutput] {
        Set(routes.outputs.values).sorted { ($0.name ?? "") < ($1.name ?? "") }
    }
}
