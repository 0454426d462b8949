#if canImport(Glibc)
import Glibc
#endif
import AppStateIPC
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import StateContainers
import UnixSignals

/// `appstated` as a service: hosts the trees, listens for Varlink calls, tells systemd
/// how it is doing, reloads its tree file on SIGHUP and drains on SIGTERM.
public struct Daemon: Service {
    private let configuration: DaemonConfiguration
    private let logger: Logger

    /// Creates the daemon.
    /// - Parameters:
    ///   - configuration: How it runs.
    ///   - logger: Where it logs.
    public init(configuration: DaemonConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs the daemon with swift-service-lifecycle until SIGTERM or SIGINT, after which it
    /// drains its connections and returns.
    /// - Parameter configuration: How it runs.
    /// - Throws: Whatever keeps it from starting: a bad tree file, an unusable socket or state directory.
    public static func main(_ configuration: DaemonConfiguration) async throws {
        LoggingBootstrap.bootstrap()
        let logger = Logger(label: "appstated")
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: Daemon(configuration: configuration, logger: logger))],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }

    public func run() async throws {
        let notifier = SystemdNotifier()
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let running = try await RunningDaemon.start(configuration, eventLoops: eventLoops, logger: logger)
        try? notifier.ready(status: await running.statusLine)
        logger.info("appstated \(AppStateVersion.current) listening on \(running.socketDescription)", metadata: ["socket": "\(running.socketDescription)"])
        let watchdog = notifier.watchdogInterval.map { interval in
            // From the main actor, so that a hung tree stops the pings and systemd restarts us.
            Task { @MainActor in
                while !Task.isCancelled {
                    try? notifier.watchdog()
                    try? await Task.sleep(for: interval)
                }
            }
        }
        await withDiscardingTaskGroup { tasks in
            tasks.addTask {
                for await _ in await UnixSignalsSequence(trapping: .sighup) {
                    try? notifier.reloading()
                    await running.reload()
                    try? notifier.ready(status: await running.statusLine)
                }
            }
            try? await gracefulShutdown()
            tasks.cancelAll()
        }
        try? notifier.stopping()
        logger.info("stopping")
        watchdog?.cancel()
        await running.stop()
        try? await eventLoops.shutdownGracefully()
    }
}
