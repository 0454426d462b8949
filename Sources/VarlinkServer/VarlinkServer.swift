import Logging
import NIOCore
import NIOPosix
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// A Varlink socket: where it listens, and the pipeline that answers each connection with
/// the ``CallProcessor`` of each hosted interface, on the event loops of a shared group.
/// `org.varlink.service` is answered here, for every hosted interface.
public struct VarlinkServer: Sendable {
    /// Where to listen.
    public enum Endpoint: Sendable {
        /// A Unix socket the server creates at a path, with a mode and optionally a group.
        case path(String, mode: mode_t, group: gid_t?)
        /// A listening socket passed in (socket activation).
        case descriptor(Int32)

        /// The socket's path, or nil for an inherited descriptor.
        public var path: String? {
            guard case .path(let path, _, _) = self else { return nil }
            return path
        }
    }

    /// How a server answers its connections, beyond where it listens.
    public struct Configuration: Sendable {
        /// What `GetInfo` says.
        public var info: ServiceInfo
        /// The bounds on messages, connections and watchers.
        public var limits: ServerLimits
        /// The errors it answers about a connection itself.
        public var errors: ConnectionErrors

        /// Creates a configuration.
        /// - Parameters:
        ///   - info: What `GetInfo` says.
        ///   - limits: The bounds on messages, connections and watchers.
        ///   - errors: The errors it answers about a connection itself.
        public init(info: ServiceInfo, limits: ServerLimits = ServerLimits(), errors: ConnectionErrors) {
            self.info = info
            self.limits = limits
            self.errors = errors
        }
    }

    /// Where to listen.
    public let endpoint: Endpoint
    private let eventLoops: any EventLoopGroup
    private let configuration: Configuration
    private let dispatcher: CallDispatcher
    private let runner: any MainActorRunner
    private let peers: PeerIdentifier
    private let counter: ConnectionCounter
    private let metrics: any ServerMetrics
    private let logger: Logger

    /// Describes a server; nothing listens until ``listen()``.
    /// - Parameters:
    ///   - endpoint: Where to listen.
    ///   - eventLoops: The event loops that accept and run the connections.
    ///   - processors: One per hosted interface.
    ///   - configuration: What it says of itself, its limits and its errors.
    ///   - runner: How calls reach the main actor, where the processors answer them.
    ///   - access: Whether a peer may change state, asked when it first tries to.
    ///   - connections: Counts the open connections, for the limit and for statistics.
    ///   - metrics: Where calls, errors that close a connection, cut-off watchers and fan-out are counted.
    ///   - logger: Where problems while stopping are logged.
    public init(
        endpoint: Endpoint, eventLoops: any EventLoopGroup, processors: [any CallProcessor], configuration: Configuration,
        runner: any MainActorRunner, access: any MutationAccess, connections: ConnectionCounter = ConnectionCounter(),
        metrics: any ServerMetrics, logger: Logger
    ) {
        self.init(
            endpoint: endpoint, eventLoops: eventLoops, processors: processors, configuration: configuration, runner: runner,
            peers: .socketCredentials(access: access), connections: connections, metrics: metrics, logger: logger)
    }

    init(
        endpoint: Endpoint, eventLoops: any EventLoopGroup, processors: [any CallProcessor], configuration: Configuration,
        runner: any MainActorRunner, peers: PeerIdentifier, connections: ConnectionCounter, metrics: any ServerMetrics, logger: Logger
    ) {
        self.endpoint = endpoint
        self.eventLoops = eventLoops
        self.configuration = configuration
        self.dispatcher = CallDispatcher(processors: processors, info: configuration.info, runner: runner, metrics: metrics)
        self.runner = runner
        self.peers = peers
        self.counter = connections
        self.metrics = metrics
        self.logger = logger
    }

    /// The number of open connections.
    public var connectionCount: Int { counter.current }

    /// Starts listening.
    /// - Returns: The listening socket, to drain when the server stops.
    /// - Throws: ``ServerError`` when the socket cannot be set up.
    public func listen() async throws -> VarlinkListener {
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
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: eventLoops)
                // Out of descriptors, accepting pauses instead of spinning on the readable socket.
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler()) }
                }
                // Clients half-close to say they are done sending, and still read what is owed them.
                .childChannelOption(.allowRemoteHalfClosure, value: true)
                .childChannelInitializer(makeInitializer(registry: registry))
                .withBoundSocket(descriptor)
                .get()
        } catch {
            close(descriptor)
            throw ServerError.socketSetup(endpoint.path ?? "descriptor \(descriptor)", "\(error)")
        }
        // NIO listens again on a socket it is given, with its default backlog of 128, whatever
        // the socket had: a burst of clients connecting at once would then fail with EAGAIN.
        Glibc.listen(descriptor, Self.backlog)
        return VarlinkListener(channel: channel, registry: registry, path: endpoint.path, logger: logger)
    }

    /// Sets up each connection: kept in the registry while open, its calls framed and
    /// answered.
    private func makeInitializer(registry: ConnectionRegistry) -> @Sendable (any Channel) -> EventLoopFuture<Void> {
        let (dispatcher, limits, counter, peers, metrics, errors, runner) =
            (self.dispatcher, configuration.limits, self.counter, self.peers, self.metrics, configuration.errors, self.runner)
        // One lane per event loop, shared by its connections: a watch event reaches all the
        // watchers of a loop in one task.
        var lanes: [ObjectIdentifier: EventLoopWatcherLane] = [:]
        for eventLoop in eventLoops.makeIterator() {
            lanes[ObjectIdentifier(eventLoop)] = EventLoopWatcherLane(eventLoop: eventLoop, metrics: metrics)
        }
        return { [lanes] channel in
            channel.eventLoop.makeCompletedFuture {
                let lane = lanes[ObjectIdentifier(channel.eventLoop)] ?? EventLoopWatcherLane(eventLoop: channel.eventLoop, metrics: metrics)
                try channel.pipeline.syncOperations.addHandlers(
                    registry.tracker(),
                    ByteToMessageHandler(
                        VarlinkCallDecoder(
                            maximumMessageSize: limits.maximumMessageSize,
                            partialMessageTimeout: limits.partialMessageTimeout)),
                    VarlinkConnectionHandler(
                        dispatcher: dispatcher, limits: limits, counter: counter, peers: peers, lane: lane,
                        errors: errors, runner: runner)
                )
            }
        }
    }

    /// SOMAXCONN, as systemd uses for the sockets it listens on (a unit's .socket too): a
    /// burst of clients connecting without blocking, as sd-varlink does, gets EAGAIN once the
    /// backlog is full.
    static let backlog: Int32 = 4096

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
        guard Glibc.listen(descriptor, backlog) == 0 else { throw setupFailed(path, "listen", closing: descriptor) }
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
        try createParentDirectory(of: path)
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerError.socketSetup(path, "a file that is not a socket is in the way")
        }
        if isAnswering(path) { throw ServerError.alreadyRunning(path) }
        unlink(path)
    }

    /// Creates the directory the socket is bound in (mode 0755: the socket's own mode decides
    /// who may connect), if it does not exist yet; only the last component, whose parent
    /// (`/run`, `$XDG_RUNTIME_DIR`) must exist.
    static func createParentDirectory(of path: String) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else { return }
        let directory = String(path[..<slash])
        if mkdir(directory, 0o755) == 0 { return }
        let error = errno
        var status = stat()
        if error == EEXIST, stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
        throw ServerError.socketSetup(path, "cannot create the directory \(directory): \(String(cString: strerror(error)))")
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
