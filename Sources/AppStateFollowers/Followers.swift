import Logging
import ServicePorts

/// The followers a daemon asks for: one per logind seat some tree follows, one for the
/// on-screen keyboard, all handing their news to one ``FollowedTrees``, and the one that holds
/// the daemon's idle inhibitor with logind.
package enum Followers {
    /// Makes the followers, not yet started.
    /// - Parameters:
    ///   - host: The trees the followers change.
    ///   - runner: How the followers' news reaches the main actor.
    ///   - seats: The seat each tree follows, by tree name.
    ///   - keyboard: Whether the trees follow the on-screen keyboard.
    ///   - keyboardHeight: The keyboard's height, or nil for squeekboard's rule.
    ///   - idleInhibitor: The daemon's idle inhibitor with logind, to hold as it says; nil for none.
    ///   - sessionLocker: Where the seats' followers record the active sessions, for idle
    ///     steps that have logind lock them; nil for none.
    ///   - logger: Where the followers log.
    /// - Returns: The followers; empty when nothing is followed.
    package static func make(
        host: any FollowedHost, runner: any MainActorRunner, seats: [String: String], keyboard: Bool,
        keyboardHeight: Double?, idleInhibitor: LogindIdleInhibitor?, sessionLocker: LogindSessionLocker?, logger: Logger
    ) -> [BusFollower] {
        let followed = FollowedTrees(host: host, runner: runner, seats: seats, keyboardHeight: keyboardHeight, logger: logger)
        var all = Set(seats.values).sorted().map { seat in
            BusFollower(
                LogindSource(
                    seat: seat, deliver: { followed.deliver($0, seat: seat) }, deliverIdle: { followed.deliver($0, seat: seat) },
                    locker: sessionLocker),
                logger: logger)
        }
        if let idleInhibitor {
            all.append(BusFollower(LogindInhibitorSource(wanted: idleInhibitor), logger: logger))
        }
        if keyboard {
            all.append(BusFollower(OnScreenKeyboardSource { followed.deliver(keyboardVisible: $0) }, logger: logger))
        }
        return all
    }
}
