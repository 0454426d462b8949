import AppStateFollowers
import AppStateHost
import Logging
import ServicePorts
import StateContainers

/// The followers a configuration asks for: one per logind seat some tree follows, and one
/// for the on-screen keyboard, all handing their decisions to one ``FollowedTrees``.
enum DaemonFollowers {
    /// The seat each tree follows, by tree name: the tree file's `logindSeat`, else, with
    /// `--follow-logind`, the configured seat for every tree with a login container.
    /// - Parameters:
    ///   - configuration: The daemon's options.
    ///   - trees: The trees, in the host's order.
    ///   - specs: The trees as the file declared them, in the same order.
    ///   - logger: Where a tree that cannot follow logind is noted.
    /// - Returns: The seats, by tree name.
    @MainActor static func seats(
        _ configuration: DaemonConfiguration, trees: [HostedTree], specs: [TreeSpec],
        logger: Logger
    ) -> [String: String] {
        var seats: [String: String] = [:]
        for (tree, spec) in zip(trees, specs) {
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
        return seats
    }

    /// Makes the followers, not yet started, and shows them on the board `GetStats` reads.
    /// With logind followed, the processor's idle inhibitors are backed by one of logind's, and
    /// its idle steps lock a session logind owns through logind.
    /// - Parameters:
    ///   - configuration: The daemon's options.
    ///   - trees: The trees the followers change, with the seat each follows.
    ///   - runner: How the followers' news reaches the main actor.
    ///   - board: Where `GetStats` finds the followers.
    ///   - logger: Where the followers log.
    /// - Returns: The followers; empty when the configuration follows nothing.
    @MainActor static func make(
        _ configuration: DaemonConfiguration, trees: DaemonTrees, runner: any MainActorRunner, board: FollowerBoard,
        logger: Logger
    ) -> [BusFollower] {
        let idleInhibitor = trees.seats.isEmpty ? nil : LogindIdleInhibitor()
        let sessionLocker = trees.seats.isEmpty ? nil : LogindSessionLocker(logger: logger)
        let followers = Followers.make(
            host: trees.processor, runner: runner, seats: trees.seats,
            keyboard: configuration.followOnScreenKeyboard, keyboardHeight: configuration.onScreenKeyboardHeight,
            idleInhibitor: idleInhibitor, sessionLocker: sessionLocker, logger: logger)
        trees.processor.systemIdleInhibitor = idleInhibitor
        trees.processor.systemSessionLocker = sessionLocker
        board.show(followers)
        return followers
    }
}
