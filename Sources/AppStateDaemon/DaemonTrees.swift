import AppStateFollowers
import AppStateHost
import Logging
import ServicePorts
import StateContainers
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
    ///   - logger: Where containment warnings, changes and storage failures go.
    /// - Returns: The trees, ready to answer calls.
    /// - Throws: A ``StorageError`` or ``SystemdError`` saying what is wrong.
    @MainActor static func load(
        _ file: TreeFile, configuration: DaemonConfiguration, socket: String?, connections: ConnectionCounter,
        followers: FollowerBoard, runner: any MainActorRunner, metrics: DaemonMetrics,
        logger: Logger
    ) throws -> DaemonTrees {
        ContainmentWarning.handler = { warning in logger.warning("\(warning)") }
        let stateDirectory = try StateDirectory.resolve(explicit: configuration.stateDirectory)
        try StateDirectory.createIfNeeded(at: stateDirectory)
        let store = StateStore(directory: stateDirectory, metrics: metrics)
        let saved = try store.load().map { bytes throws(StorageError) in try StateDocument.decode(bytes, path: store.path) }
        let host: TreeHost
        do {
            host = try TreeHost(file: file, restoring: saved, clock: RunnerClock(runner: runner))
        } catch let error as ContainmentError {
            // E.g. a tree's restoration document of another version: name the file too.
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
