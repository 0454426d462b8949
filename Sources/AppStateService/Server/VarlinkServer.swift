#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix

/// The daemon's listening socket: accepts Varlink connections on event loops and hands
/// their calls to a ``CallProcessor``.
public final class VarlinkServer: Sendable {
    /// Where to listen.
    public enum Endpoint: Sendable {
        /// A Unix socket the daemon creates at a path, with a mode and optionally a group.
        case path(String, mode: mode_t, group: gid_t?)
        /// A listening socket systemd passed in (socket activation).
        case descriptor(Int32)
    }

    private let listener: any Channel
    private let counter: ConnectionCounter
    private let registry: ConnectionRegistry

    /// The path of the socket, or nil for an inherited descriptor.
    public let path: String?

    /// The number of open connections.
    public var connectionCount: Int { counter.current }

    private init(listener: any Channel, counter: ConnectionCounter, registry: ConnectionRegistry, path: String?) {
        self.listener = listener
        self.counter = counter
        self.registry = registry
        self.path = path
    }

    /// Starts listening.
    /// - Parameters:
    ///   - endpoint: Where to listen.
    ///   - group: The event loops that run the connections.
    ///   - processor: The service that answers calls.
    ///   - limits: The bounds on messages, connections and watchers.
    ///   - access: Decides for each connection, from its credentials, whether it may mutate.
    /// - Throws: ``ServerError`` when the socket cannot be set up.
    public static func start(
        endpoint: Endpoint,
        group: any EventLoopGroup,
        processor: any CallProcessor,
        limits: ServerLimits,
        access: any MutationAccess
    ) async throws -> VarlinkServer {
        let counter = ConnectionCounter()
        let registry = ConnectionRegistry()
        let bootstrap = ServerBootstrap(group: group)
            // SOMAXCONN, as systemd uses for the sockets it listens on (appstated.socket too): a
            // burst of clients connecting without blocking, as sd-varlink does, gets EAGAIN
            // once the backlog is full.
            .serverChannelOption(.backlog, value: 4096)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        registry.tracker(),
                        VarlinkConnectionHandler(processor: processor, limits: limits, counter: counter, access: access)
                    )
                }
            }
        switch endpoint {
        case .descriptor(let fd):
            let listener = try await bootstrap.withBoundSocket(fd).get()
            return VarlinkServer(listener: listener, counter: counter, registry: registry, path: nil)
        case .path(let path, let mode, let gid):
            try prepareSocketPath(path)
            let listener: any Channel
            do {
                listener = try await bootstrap.bind(unixDomainSocketPath: path).get()
            } catch {
                throw ServerError.socketSetup(path, "\(error)")
            }
            guard chmod(path, mode) == 0 else { throw ServerError.socketSetup(path, "chmod: \(String(cString: strerror(errno)))") }
            if let gid, chown(path, UInt32.max, gid) != 0 {
                throw ServerError.socketSetup(path, "chown: \(String(cString: strerror(errno)))")
            }
            return VarlinkServer(listener: listener, counter: counter, registry: registry, path: path)
        }
    }

    /// Stops accepting, lets calls in progress finish and closes every connection.
    public func drain() async {
        try? await listener.close()
        if let path { unlink(path) }
        let open = registry.channels.withLockedValue { Array($0.values) }
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(DrainEvent())
        }
        for channel in open {
            try? await channel.closeFuture.get()
        }
    }

    /// Creates the socket's directory and removes a stale socket file, but never one that
    /// another running daemon still answers on.
    private static func prepareSocketPath(_ path: String) throws {
        do {
            try SocketPaths.createParentDirectory(of: path)
        } catch {
            throw ServerError.socketSetup(path, "\(error)")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerError.socketSetup(path, "a file that is not a socket is in the way")
        }
        if isAnswering(path) { throw ServerError.alreadyRunning(path) }
        unlink(path)
    }

    private static func isAnswering(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
