import AppStateIPC
import Logging
import StateContainers

/// The followers a configuration asks for: one per logind seat some tree follows, and one
/// for the on-screen keyboard, all handing their decisions to one ``FollowedTrees``.
struct Followers: Sendable {
    /// The followers, not yet started.
    let all: [BusFollower]
    /// The seat each tree follows, by tree name.
    let seats: [String: String]

    /// Where each follower stands, for `GetStats`: nil when there are none.
    var statuses: @Sendable () -> [Follower]? {
        let all = self.all
        guard !all.isEmpty else { return { nil } }
        return {
            all.map { follower in
                let status = follower.status
                return Follower(name: follower.name, connected: status.isConnected, detail: status.detail)
            }
        }
    }

    /// Works out which tree follows which seat and makes the followers.
    /// - Parameters:
    ///   - configuration: `--follow-logind`, `--seat`, `--follow-osk`, `--osk-height`.
    ///   - trees: The trees; their tree file may name a seat per tree.
    ///   - logger: Where the followers log.
    @MainActor static func make(_ configuration: DaemonConfiguration, trees: DaemonTrees, logger: Logger) -> Followers {
        var seats: [String: String] = [:]
        for (tree, spec) in zip(trees.host.trees, trees.specs) {
            if let seat = spec.logindSeat {
                seats[tree.name] = seat
            } else if configuration.followLogind {
                do {
                    _ = try tree.container(LoginStateController.self, at: nil)
                    seats[tree.name] = configuration.seat
                } catch {
                    logger.info("tree \(tree.name) has no login container, so it does not follow logind")
                }
            }
        }
        let followed = FollowedTrees(processor: trees.processor, seats: seats,
                                     keyboardHeight: configuration.onScreenKeyboardHeight, logger: logger)
        var all = Set(seats.values).sorted().map { seat in
            BusFollower(LogindSource(seat: seat) { followed.deliver($0, seat: seat) }, logger: logger)
        }
        if configuration.followOnScreenKeyboard {
            all.append(BusFollower(OnScreenKeyboardSource { followed.deliver(keyboardVisible: $0) }, logger: logger))
        }
        return Followers(all: all, seats: seats)
    }
}
