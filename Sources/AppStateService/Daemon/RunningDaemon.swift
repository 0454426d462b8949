#if canImport(Glibc)
import Glibc
#endif
import AppStateIPC
import Logging
import NIOCore
import StateContainers

/// The daemon between start and stop: its trees, state store and server.
@MainActor final class RunningDaemon {
    private let configuration: DaemonConfiguration
    private let logger: Logger
    private let host: TreeHost
    private let processor: RequestProcessor
    private let server: VarlinkServer
    /// Where clients connect, for the log and `STATUS=`.
    nonisolated let socketDescription: String
    /// The hosted trees' names.
    var treeNames: [String] { host.treeNames }

    private init(configuration: DaemonConfiguration, logger: Logger, host: TreeHost, processor: RequestProcessor, server: VarlinkServer) {
        self.configuration = configuration
        self.logger = logger
        self.host = host
        self.processor = processor
        self.server = server
        self.socketDescription = server.path ?? "socket passed by systemd"
    }

    /// The `STATUS=` line for systemd.
    var statusLine: String {
        "Serving \(host.treeNames.count) tree(s) on \(socketDescription); \(server.connectionCount) connection(s), \(processor.watcherCount) watcher(s)"
    }

    /// Builds the trees, restores the saved state, shows the trees and starts listening.
    /// - Throws: A ``TreeFileError``, ``StorageError``, ``SystemdError`` or ``ServerError`` saying what is wrong.
    static func start(_ configuration: DaemonConfiguration, eventLoops: any EventLoopGroup, logger: Logger) async throws -> RunningDaemon {
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
        var limits = configuration.limits
        let descriptors = DescriptorLimit.raise(fitting: limits.maximumConnections)
        if descriptors.connections < limits.maximumConnections {
            logger.warning("\(descriptors.limit) file descriptors allow \(descriptors.connections) connections, not \(limits.maximumConnections); raise LimitNOFILE= to hold more")
            limits.maximumConnections = descriptors.connections
        }
        let server = try await VarlinkServer.start(
            endpoint: try endpoint(configuration),
            group: eventLoops,
            processor: processor,
            limits: limits,
            access: PeerAccess(allowedGroups: configuration.allowedGroups)
        )
        processor.environment = RequestProcessor.Environment(
            socket: server.path,
            stateDirectory: stateDirectory,
            connections: { server.connectionCount }
        )
        return RunningDaemon(configuration: configuration, logger: logger, host: host, processor: processor, server: server)
    }

    /// Rebuilds the trees from the tree file, keeping the restorable state. A tree file
    /// that no longer loads is logged and the running trees stay.
    func reload() {
        do {
            let file = try configuration.treeFile.map { try TreeFileLoader.load(path: $0) } ?? TreeFile.default
            try host.reload(file)
            logger.info("reloaded", metadata: ["trees": "\(host.treeNames.joined(separator: ","))"])
        } catch {
            logger.error("reload failed, keeping the running trees: \(error)")
        }
    }

    /// Ends the watch streams and drains the connections.
    func stop() async {
        processor.closeWatchers()
        await server.drain()
    }

    private static func endpoint(_ configuration: DaemonConfiguration) throws -> VarlinkServer.Endpoint {
        if configuration.socketPath == nil, let descriptor = try ListenedSockets.takeVarlinkSocket() {
            return .descriptor(descriptor)
        }
        let path = try configuration.socketPath ?? SocketPaths.defaultSocketPath()
        let group = configuration.allowedGroups.lazy.compactMap(groupID(named:)).first
        return .path(path, mode: configuration.socketMode, group: group)
    }

    private static func groupID(named name: String) -> gid_t? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrnam_r(name, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return group.gr_gid
    }
}
