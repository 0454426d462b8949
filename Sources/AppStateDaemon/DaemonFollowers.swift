import AppStateFollowers
import AppStateHost
import Logging
import ServicePorts
import StateContainers
import TreeFiles

/// What the trees follow, from the options and the tree file, and the followers that follow it.
enum DaemonFollowers {
    /// What each tree follows, by tree name. The seat: the tree file's `logindSeat`, else,
    /// with `--follow-logind`, the configured seat for every tree with a login container. The
    /// output: the tree file's `output`, else, with `--follow-output`, the configured output
    /// (or the first) for every tree.
    /// - Parameters:
    ///   - configuration: The daemon's options.
    ///   - trees: The trees, in the host's order.
    ///   - specs: The trees as the file declared them, in the same order.
    ///   - logger: Where a tree that cannot follow logind is noted.
    /// - Returns: The routes.
    @MainActor static func routes(
        _ configuration: DaemonConfiguration, trees: [HostedTree], specs: [HostedTreeSpec],
        logger: Logger
    ) -> FollowedRoutes {
        var routes = FollowedRoutes()
        for (tree, spec) in zip(trees, specs) {
            if let seat = spec.logindSeat {
                routes.seats[tree.name] = seat
            } else if configuration.followers.followLogind {
                do {
                    _ = try tree.container(LoginStateController.self, at: nil)
                    routes.seats[tree.name] = configuration.followers.seat
                } catch {
                    logger.info("tree \(tree.name) has no login container, so it does not follow logind")
                }
            }
            if let output = spec.output {
                routes.outputs[tree.name] = .named(output)
            } else if configuration.followers.followOutput {
                routes.outputs[tree.name] = configuration.followers.output.map(FollowedOutput.named) ?? .first
            }
        }
        return routes
    }

    /// Makes the followers, not yet started, and shows them on the board `GetStats` reads.
    /// While some tree follows a seat, the processor's idle inhibitors are backed by one of
    /// logind's; its idle steps lock a session logind owns through logind. With `--follow-osk`
    /// its `RequestKeyboard` asks the keyboard followed.
    /// - Parameters:
    ///   - configuration: The daemon's options.
    ///   - trees: The trees the followers change, with what each follows.
    ///   - runner: How the followers' news reaches the main actor.
    ///   - board: Where `GetStats` finds the followers.
    ///   - logger: Where the followers log.
    /// - Returns: The followers.
    @MainActor static func make(
        _ configuration: DaemonConfiguration, trees: DaemonTrees, runner: any MainActorRunner, board: FollowerBoard,
        logger: Logger
    ) -> FollowerRoster {
        let followed = configuration.followers
        let keyboard: OnScreenKeyboardChoice? =
            followed.followOnScreenKeyboard ? followed.onScreenKeyboardSource.map(OnScreenKeyboardChoice.only) ?? .any : nil
        let roster = FollowerRoster(
            host: trees.processor, runner: runner, routes: trees.routes, keyboard: keyboard,
            keyboardHeight: followed.onScreenKeyboardHeight, board: board, logger: logger)
        trees.processor.systemIdleInhibitor = roster.idleInhibitor
        trees.processor.systemSessionLocker = roster.sessionLocker
        trees.processor.systemKeyboard = roster.keyboard
        return roster
    }
}
