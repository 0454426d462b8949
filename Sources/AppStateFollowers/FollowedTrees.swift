import AppStateIPC
import Logging
import ServicePorts
import Synchronization

/// Where the followers' decisions meet the trees. A follower's thread hands over the latest
/// desired session of its seat, or the keyboard's visibility; the main actor takes whatever
/// is waiting, works out the calls that reach it (``FollowedChanges``) and runs them through
/// ``FollowedHost/processFollowed(_:reply:)``, the path of clients' calls, so that the change
/// is durable before it is published and watchers see the same events. Only the latest state
/// waits: a flood of signals costs one batch per turn of the main actor, not one per signal.
final class FollowedTrees: Sendable {
    private struct Pending {
        var sessions: [String: DesiredSession] = [:]
        var keyboard: Bool?
        var idle: [String: SessionIdle] = [:]
        var draining = false

        var isEmpty: Bool { sessions.isEmpty && keyboard == nil && idle.isEmpty }
    }

    private let host: any FollowedHost
    private let runner: any MainActorRunner
    /// The seat each tree follows, by tree name.
    private let seats: [String: String]
    /// The keyboard's height from `--osk-height`; nil for squeekboard's rule.
    private let keyboardHeight: Double?
    private let logger: Logger
    private let pending = Mutex(Pending())

    /// Creates the meeting point.
    /// - Parameters:
    ///   - host: What answers the calls.
    ///   - runner: How the followers' news reaches the main actor.
    ///   - seats: The seat each tree follows, by tree name.
    ///   - keyboardHeight: The keyboard's height, or nil for squeekboard's rule.
    ///   - logger: Where refused changes go.
    init(host: any FollowedHost, runner: any MainActorRunner, seats: [String: String], keyboardHeight: Double?, logger: Logger) {
        self.host = host
        self.runner = runner
        self.seats = seats
        self.keyboardHeight = keyboardHeight
        self.logger = logger
    }

    /// Hands over what logind says about a seat; from any thread.
    func deliver(_ desired: DesiredSession, seat: String) {
        submit { $0.sessions[seat] = desired }
    }

    /// Hands over whether logind says a seat's active session is idle; from any thread.
    func deliver(_ idle: SessionIdle, seat: String) {
        submit { $0.idle[seat] = idle }
    }

    /// Hands over whether the keyboard is visible; from any thread.
    func deliver(keyboardVisible visible: Bool) {
        submit { $0.keyboard = visible }
    }

    private func submit(_ change: (inout Pending) -> Void) {
        let start = pending.withLock { pending in
            change(&pending)
            defer { pending.draining = true }
            return !pending.draining
        }
        if start { runner.execute { self.drain() } }
    }

    /// Runs what is waiting, one batch at a time, until nothing is.
    @MainActor private func drain() {
        let work = pending.withLock { pending -> Pending? in
            guard !pending.isEmpty else {
                pending.draining = false
                return nil
            }
            defer { pending = Pending(draining: true) }
            return pending
        }
        guard let work else { return }
        // Idleness changes no tree: the trees' idle clocks take it at once, measured now.
        for (seat, idle) in work.idle {
            let duration = idle.idleFor
            for (tree, followed) in seats where followed == seat { host.followedIdle(tree: tree, idleFor: duration) }
        }
        let calls = self.calls(for: work)
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

    @MainActor private func calls(for work: Pending) -> [VarlinkCall] {
        var calls: [VarlinkCall] = []
        for tree in host.followedTrees {
            if let seat = seats[tree.name], let desired = work.sessions[seat] {
                if let session = tree.session {
                    calls += FollowedChanges.session(tree: tree.name, user: session.user, locked: session.locked, desired: desired)
                } else {
                    logger.error("tree \(tree.name) follows logind's \(seat) but has no login container")
                }
            }
            if let visible = work.keyboard {
                let height = keyboardHeight ?? OnScreenKeyboardHeight.squeekboard(for: tree.windowSize)
                calls.append(FollowedChanges.keyboard(tree: tree.name, visible: visible, height: height))
            }
        }
        return calls
    }
}
