#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix

/// The daemon's Varlink socket: where it listens, and the pipeline that answers each
/// connection with a ``CallProcessor`` on the event loops of a shared group.
struct VarlinkServer: Sendable {
    /// Where to listen.
    enum Endpoint: Sendable {
        /// A Unix socket the daemon creates at a path, with a mode and optionally a group.
        case path(String, mode: mode_t, group: gid_t?)
        /// A listening socket systemd passed in (socket activation).
        case descriptor(Int32)

        /// The socket's path, or nil for an inherited descriptor.
        var path: String? {
            guard case .path(let path, _, _) = self else { return nil }
            return path
        }
    }

    /// Where to listen.
    let endpoint: Endpoint
    private let eventLoops: any EventLoopGroup
    private let processor: any CallProcessor
    private let limits: ServerLimits
    private let peers: PeerIdentifier
    private let counter: ConnectionCounter
    private let metrics: DaemonMetrics
    private let logger: Logger

    /// Describes a server; nothing listens until ``listen()``.
    /// - Parameters:
    ///   - endpoint: Where to listen.
    ///   - eventLoops: The event loops that accept and run the connections.
    ///   - processor: The service that answers calls.
    ///   - limits: The bounds on messages, connections and watchers.
    ///   - peers: How each connection's peer is identified.
    ///   - connections: Counts the open connections, for the limit and for `GetStats`.
    ///   - metrics: Where the fan-out is timed and the errors that close a connection are counted.
    ///   - logger: Where problems while stopping are logged.
    init(endpoint: Endpoint, eventLoops: any EventLoopGroup, processor: any CallProcessor, limits: ServerLimits, peers: PeerIdentifier,
         connections: ConnectionCounter = ConnectionCounter(), metrics: DaemonMetrics = DaemonMetrics(), logger: Logger) {
        self.endpoint = endpoint
        self.eventLoops = eventLoops
        self.processor = processor
        self.limits = limits
        self.peers = peers
        self.counter = connections
        self.metrics = metrics
        self.logger = logger
    }

    /// The number of open connections.
    var connectionCount: Int { counter.current }

    /// Starts listening.
    /// - Returns: The listening socket, to drain when the daemon stops.
    /// - Throws: ``ServerError`` when the socket cannot be set up.
    func listen() async throws -> VarlinkListener {
        let registry = ConnectionRegistry()
        let descriptor: CInt
        switch endpoint {
        case .descriptor(let inherited):
            // systemd passes the socket blocking; accepting must not wait.
            guard fcntl(inherited, F_SETFL, fcntl(inherited, F_GETFL) | O_NONBLOCK) == 0 else {
                throw ServerError.socketSetup("descriptor \(inherited)", String(cString: strerror(errno)))
            }
            descriptor = inherited
        case .path(let path, let mode, let gid):
            try Self.prepareSocketPath(path)
            descriptor = try Self.bind(path)
            guard chmod(path, mode) == 0 else { throw Self.setupFailed(path, "chmod", closing: descriptor) }
            if let gid, chown(path, UInt32.max, gid) != 0 { throw Self.setupFailed(path, "chown", closing: descriptor) }
        }
        let acceptor: VarlinkAcceptor
        do {
            acceptor = try VarlinkAcceptor(descriptor: descriptor, eventLoops: eventLoops, initializer: makeInitializer(registry: registry),
                                           logger: logger)
        } catch {
            close(descriptor)
            throw error
        }
        acceptor.start()
        return VarlinkListener(acceptor: acceptor, registry: registry, path: endpoint.path, logger: logger)
    }

    /// Sets up each connection: kept in the registry while open, its calls framed and
    /// answered, and its descriptor known to its watcher side.
    private func makeInitializer(registry: ConnectionRegistry) -> VarlinkAcceptor.Initializer {
        let (processor, limits, counter, peers, metrics) = (self.processor, self.limits, self.counter, self.peers, self.metrics)
        // One lane per event loop, shared by its connections: a watch event reaches all the
        // watchers of a loop in one task.
        var lanes: [ObjectIdentifier: EventLoopWatcherLane] = [:]
        for eventLoop in eventLoops.makeIterator() {
            lanes[ObjectIdentifier(eventLoop)] = EventLoopWatcherLane(eventLoop: eventLoop, metrics: metrics)
        }
        return { [lanes] channel, descriptor in
            let lane = lanes[ObjectIdentifier(channel.eventLoop)] ?? EventLoopWatcherLane(eventLoop: channel.eventLoop, metrics: metrics)
            try channel.pipeline.syncOperations.addHandlers(
                registry.tracker(),
                ByteToMessageHandler(VarlinkCallDecoder(maximumMessageSize: limits.maximumMessageSize,
                                                        partialMessageTimeout: limits.partialMessageTimeout)),
                VarlinkConnectionHandler(processor: processor, limits: limits, counter: counter, peers: peers, lane: lane,
                                         descriptor: descriptor)
            )
        }
    }

    /// A non-blocking socket listening at `path`.
    private static func bind(_ path: String) throws -> CInt {
        var address = sockaddr_un()
        guard fillAddress(&address, path) else { throw ServerError.socketSetup(path, "the path is too long for a Unix socket") }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError.socketSetup(path, "socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw setupFailed(path, "bind", closing: descriptor) }
        // SOMAXCONN, as systemd uses for the sockets it listens on (appstated.socket too): a
        // burst of clients connecting without blocking, as sd-varlink does, gets EAGAIN
        // once the backlog is full.
        guard Glibc.listen(descriptor, 4096) == 0 else { throw setupFailed(path, "listen", closing: descriptor) }
        return descriptor
    }

    /// The error of a failed system call while setting up `path`'s socket, which is closed.
    private static func setupFailed(_ path: String, _ call: String, closing descriptor: CInt) -> ServerError {
        let reason = "\(call): \(String(cString: strerror(errno)))"
        close(descriptor)
        return ServerError.socketSetup(path, reason)
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
        var address = sockaddr_un()
        guard fillAddress(&address, path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Puts `path` in a Unix socket address.
    /// - Returns: False when the path does not fit.
    private static func fillAddress(_ address: inout sockaddr_un, _ path: String) -> Bool {
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return true
    }
}
