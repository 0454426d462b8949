import Logging
import StateContainers

/// The daemon's trees at run time: the host, where their state is kept, and the processor
/// that answers calls on them.
struct DaemonTrees: Sendable {
    /// The trees.
    let host: TreeHost
    /// What answers the calls.
    let processor: RequestProcessor
    /// Where the restorable state is kept.
    let stateDirectory: String
    /// The trees as the tree file (or the default tree) declared them at start, in the
    /// host's order.
    let specs: [TreeSpec]

    /// Builds the trees, restores the saved state into them and shows them.
    /// - Parameters:
    ///   - configuration: Which tree file and state directory.
    ///   - logger: Where containment warnings, changes and storage failures go.
    /// - Returns: The trees, ready to answer calls.
    /// - Throws: A ``TreeFileError``, ``StorageError`` or ``SystemdError`` saying what is wrong.
    @MainActor static func load(_ configuration: DaemonConfiguration, logger: Logger) throws -> DaemonTrees {
        ContainmentWarning.handler = { warning in logger.warning("\(warning)") }
        let file = try configuration.treeFile.map { try TreeFileLoader.load(path: $0) } ?? TreeFile.default
        let stateDirectory = try StateDirectory.resolve(explicit: configuration.stateDirectory)
        try StateDirectory.createIfNeeded(at: stateDirectory)
        let store = StateStore(directory: stateDirectory)
        let saved = try store.load().map { bytes throws(StorageError) in try StateDocument.decode(bytes, path: store.path) }
        let host: TreeHost
        do {
            host = try TreeHost(file: file, restoring: saved)
        } catch let error as ContainmentError {
            // E.g. a tree's restoration document of another version: name the file too.
            throw StorageError.corrupt(store.path, "\(error)")
        }
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: store)
        processor.onEvent = { event in
            logger.info("\(event.name)", metadata: [
                "tree": "\(event.tree)", "event": "\(event.name)", "path": "\(event.path ?? "")", "current": "\(event.current)",
            ])
        }
        processor.onStorageFailure = { message in
            logger.error("storage failure: \(message)", metadata: ["stateDirectory": "\(stateDirectory)"])
        }
        return DaemonTrees(host: host, processor: processor, stateDirectory: stateDirectory, specs: file.trees)
    }
}
