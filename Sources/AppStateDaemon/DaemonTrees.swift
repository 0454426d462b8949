import AppStateFollowers
import AppStateHost
import Logging
import ServicePorts
import StateContainers
import TreeFiles
import VarlinkServer

/// The daemon's trees at run time: the host, where their state is kept, and the processor
/// that answers calls on them.
struct DaemonTrees: Sendable {
    /// The trees.
    let host: TreeHost
    /// What answers the calls.
    let processor: RequestProcessor
    /// Where the restorable state is kept.
    let stateDirectory: String
    /// What each tree follows at start.
    let routes: FollowedRoutes

    /// Builds the trees, restores the saved state into them and shows them.
    /// - Parameters:
    ///   - file: The tree file.
    ///   - configuration: Which state directory, and what the trees follow.
    ///   - socket: The socket path, when the daemon creates it, for `GetStats`.
    ///   - connections: The open connections, for `GetStats`.
    ///   - followers: Where `GetStats` finds the followers, once they are made.
    ///   - runner: Where the processor resumes a batch after it waited.
    ///   - metrics: Where calls and commits are counted, for `GetMetrics`.
    ///   - logger: Where containment warnings, changes and storage failures go, and a state
    ///     file set aside because it held no state.
    /// - Returns: The trees, ready to answer calls.
    /// - Throws: A ``StorageError`` (a state file that cannot be read, a newer build wrote,
    ///   or that is damaged and cannot be set aside) or ``SystemdError`` saying what is wrong.
    @MainActor static func load(
        _ file: HostedTreeFile, configuration: DaemonConfiguration, socket: String?, connections: ConnectionCounter,
        followers: FollowerBoard, runner: any MainActorRunner, metrics: DaemonMetrics,
        logger: Logger
    ) throws -> DaemonTrees {
        ContainmentWarning.handler = { warning in logger.warning("\(warning)") }
        let stateDirectory = try StateDirectory.resolve(explicit: configuration.files.stateDirectory)
        try StateDirectory.createIfNeeded(at: stateDirectory)
        let store = StateStore(directory: stateDirectory, metrics: metrics)
        let (saved, setAside) = try store.loadDocument()
        for setAside in setAside {
            // Started all the same: a kiosk with its trees at the initial state beats one with
            // none, and the file is kept for whoever wants to look at or restore it.
            logger.error(
                "state file set aside: \(setAside.problem); kept as \(setAside.path); the trees start from the tree file's initial state",
                metadata: ["stateDirectory": "\(stateDirectory)", "setAside": "\(setAside.path)"])
        }
        let host: TreeHost
        do {
            host = try TreeHost(file: file, restoring: saved, clock: RunnerClock(runner: runner))
        } catch let error as ContainmentError {
            // The document's versions were checked as it was read, so this is no damage that
            // setting the file aside would mend: name the file, and stop.
            throw StorageError.corrupt(store.path, "\(error)")
        }
        host.makeVisible()
        let routes = DaemonFollowers.routes(configuration, trees: host.trees, specs: file.trees, logger: logger)
        let environment = RequestProcessor.Environment(
            socket: socket, stateDirectory: stateDirectory, connections: { connections.current }, followers: { followers.statuses }
        )
        let processor = RequestProcessor(
            host: host, store: store, runner: runner, environment: environment, metrics: metrics, logger: logger)
        processor.follow(routes)
        return DaemonTrees(host: host, processor: processor, stateDirectory: stateDirectory, routes: routes)
    }
}
