import AppStateHost
import StateContainers
import TreeFiles

#if canImport(Glibc)
    import Glibc
#endif

/// What the daemon reads before it can build its trees and listen: the tree file and the ids
/// of the groups allowed to change state. Neither needs the event loop or the main actor, so
/// ``Daemon`` reads them on another thread while the main thread starts the loop.
struct StartupInputs: Sendable {
    /// The configured tree file, or the embedded default tree.
    let treeFile: HostedTreeFile
    /// The allowed groups that exist, in the configured order: the first owns a socket the
    /// daemon creates, and all of them may change state. A name that does not resolve grants
    /// nothing, so that the daemon still runs for root and its own user.
    let allowedGroupIDs: [gid_t]

    /// Reads the inputs.
    /// - Parameter configuration: Which tree file and groups.
    /// - Throws: ``TreeFileError`` when the tree file does not load.
    init(_ configuration: DaemonConfiguration) throws(TreeFileError) {
        treeFile = try TreeFileLoader.load(pathOrDefault: configuration.files.treeFile)
        allowedGroupIDs = AccessPolicy.groupIDs(named: configuration.socket.allowedGroups)
    }
}
