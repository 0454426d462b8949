import AppStateCore
import AppStateIPC
import Logging
import ServicePorts
import Synchronization
import WaylandOutputs

/// Where the followers' news meets the trees. A follower's thread hands over what it knows
/// now (the desired session of a seat and whether it is idle, whether the keyboard is
/// visible, the compositor's outputs); the main actor takes what changed, works out the
/// calls that bring each tree there (``FollowedChanges``: only differences, so the same news
/// twice changes nothing) and runs them through ``FollowedHost/processFollowed(_:reply:)``,
/// the path of clients' calls, so that a change is durable before it is published and
/// watchers see the same events (`Login`, `ShowKeyboard`, `Resize`…). Only the latest news
/// waits: a flood of signals costs one batch per turn of the main actor, not one per signal.
///
/// The latest news is kept, so that trees rebuilt by a reload, or following other seats and
/// outputs, are brought to it again (``follow(_:)``), and a window resized by its output gets
/// the keyboard's frame of its new size.
final class FollowedTrees: Sendable {
    /// What the followers said last.
    private struct News {
        var sessions: [String: DesiredSession] = [:]
        var keyboard: Bool?
        var outputs: OutputLayout?
        /// Whether each seat's active session is idle.
        var idle: [String: SessionIdle] = [:]
    }

    /// What changed since the last batch.
    private struct Work {
        var news = News()
        var seats: Set<String> = []
        /// Seats whose idleness changed.
        var idleSeats: Set<String> = []
        /// Trees that follow another seat, or none, since a reload.
        var idleTrees: Set<String> = []
        var keyboard = false
        var outputs = false
        var everything = false

        var isEmpty: Bool { seats.isEmpty && idleSeats.isEmpty && idleTrees.isEmpty && !keyboard && !outputs && !everything }
    }

    private struct Pending {
        var work = Work()
        var routes: FollowedRoutes
        var draining = false
    }

    private let host: any FollowedHost
    private let runner: any MainActorRunner
    /// The keyboard's height from `--osk-height`; nil for squeekboard's rule.
    private let keyboardHeight: Double?
    private let logger: Logger
    private let pending: Mutex<Pending>

    /// Creates the meeting point.
    /// - Parameters:
    ///   - host: What answers the calls.
    ///   - runner: How the followers' news reaches the main actor.
    ///   - routes: The seat and the output each tree follows.
    ///   - keyboardHeight: The keyboard's height, or nil for squeekboard's rule.
    ///   - logger: Where refused changes go.
    init(host: any FollowedHost, runner: any MainActorRunner, routes: FollowedRoutes, keyboardHeight: Double?, logger: Logger) {
        self.host = host
        self.runner = runner
        self.keyboardHeight = keyboardHeight
        self.logger = logger
        pending = Mutex(Pending(routes: routes))
    }

    /// Hands over what logind says about a seat; from any thread.
    func deliver(_ desired: DesiredSession, seat: String) {
        submit {
            $0.news.sessions[seat] = desired
            $0.seats.insert(seat)
        }
    }

    /// Hands over whether logind says a seat's active session is idle; from any thread.
    func deliver(_ idle: SessionIdle, seat: String) {
        submit {
            $0.news.idle[seat] = idle
            $0.idleSeats.insert(seat)
        }
    }

    /// Hands over whether the keyboard is visible; from any thread.
    func deliver(keyboardVisible visible: Bool) {
        submit {
            $0.news.keyboard = visible
            $0.keyboard = true
        }
    }

    /// Hands over the compositor's outputs; from any thread.
    func deliver(outputs layout: OutputLayout) {
        submit {
            $0.news.outputs = layout
            $0.outputs = true
        }
    }

    /// Takes what each tree follows after a reload, and brings every tree to the latest news.
    func follow(_ routes: FollowedRoutes) {
        submit(routes: routes) { $0.everything = true }
    }

    private func submit(routes: FollowedRoutes? = nil, _ change: (inout Work) -> Void) {
        let start = pending.withLock { pending in
            change(&pending.work)
            if let routes {
                let trees = Set(pending.routes.seats.keys).union(routes.seats.keys)
                pending.work.idleTrees.formUnion(trees.filter { pending.routes.seats[$0] != routes.seats[$0] })
                pending.routes = routes
            }
            defer { pending.draining = true }
            return !pending.draining
        }
        if start { runner.execute { self.drain() } }
    }

    /// Runs what is waiting, one batch at a time, until nothing is.
    @MainActor private func drain() {
        let taken = pending.withLock { pending -> (Work, FollowedRoutes)? in
            guard !pending.work.isEmpty else {
                pending.draining = false
                return nil
            }
            defer {
                pending.work = Work(news: pending.work.news)
            }
            return (pending.work, pending.routes)
        }
        guard let (work, routes) = taken else { return }
        tellIdle(work, routes: routes)
        let calls = self.calls(for: work, routes: routes)
        guard !calls.isEmpty else { return drain() }
        host.processFollowed(calls) { replies in
            for (call, reply) in zip(calls, replies) {
                if let reply, let name = reply.error {
                    let error = VarlinkError(name: name, parameters: reply.parameters)
                    self.logger.error("could not follow the system with \(call.method): \(error)")
                }
            }
            self.drain()
        }
    }

    /// Tells the trees' idle clocks what logind says of the seats they follow. Idleness changes
    /// no tree, so it is no call: the clocks take it at once, measured now. A tree that follows
    /// another seat after a reload hears that seat's news; one that follows none any more hears
    /// that its session is not idle.
    @MainActor private func tellIdle(_ work: Work, routes: FollowedRoutes) {
        for (tree, seat) in routes.seats where work.idleSeats.contains(seat) || work.idleTrees.contains(tree) {
            guard let idle = work.news.idle[seat] else { continue }
            host.followedIdle(tree: tree, idleFor: idle.idleFor)
        }
        for tree in work.idleTrees.sorted() where routes.seats[tree] == nil {
            host.followedIdle(tree: tree, idleFor: nil)
        }
    }

    @MainActor private func calls(for work: Work, routes: FollowedRoutes) -> [VarlinkCall] {
        var calls: [VarlinkCall] = []
        for tree in host.followedTrees {
            if let seat = routes.seats[tree.name], work.everything || work.seats.contains(seat), let desired = work.news.sessions[seat] {
                if let session = tree.session {
                    calls += FollowedChanges.session(tree: tree.name, user: session.user, locked: session.locked, desired: desired)
                } else {
                    logger.error("tree \(tree.name) follows logind's \(seat) but has no login container")
                }
            }
            var size = tree.windowSize
            var resized = false
            if let followed = routes.outputs[tree.name], work.everything || work.outputs, let layout = work.news.outputs {
                let output = layout.output(followed)
                let wanted = output?.size ?? tree.declaredSize
                if wanted != size {
                    if output == nil {
                        logger.info("tree \(tree.name): \(followed) is not connected, so the window has its tree file's size again")
                    }
                    calls.append(FollowedChanges.resize(tree: tree.name, to: wanted))
                    size = wanted
                    resized = true
                }
            }
            if let visible = work.news.keyboard, work.everything || work.keyboard || resized {
                let height = min(keyboardHeight ?? OnScreenKeyboardHeight.squeekboard(for: size), size.height)
                calls += FollowedChanges.keyboard(tree: tree.name, visible: visible, height: height, window: size, frame: tree.keyboardFrame)
            }
        }
        return calls
    }
}
