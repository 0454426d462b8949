import AppStateFollowers
import AppStateHost
import AppStateIPC
import Logging
import NIOCore
import ServiceLifecycle
import ServicePorts
import StateContainers
import TreeFiles
import UnixSignals
import VarlinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// `appstated`: hosts the trees and serves them on a Varlink socket, as a group of services
/// (swift-service-lifecycle) on one event loop, the main thread's, which also runs the main
/// actor (see ``MainThreadEventLoop``): the server, reloads on SIGHUP and, when systemd asks
/// for it, the watchdog. SIGTERM or SIGINT shuts them down gracefully in reverse order, so the
/// watchdog and reloads stop before the server says `STOPPING=1` and drains.
package enum Daemon {
    /// Runs the daemon until SIGTERM or SIGINT, after which it drains its connections and
    /// returns. Call it from the main thread.
    /// - Parameter configuration: How it runs.
    /// - Throws: Whatever keeps it from starting: a bad tree file, an unusable socket or state directory.
    package static func main(_ configuration: DaemonConfiguration) throws {
        LoggingBootstrap.bootstrap()
        let logger = Logger(label: "appstated")
        // The tree file and the allowed groups are read on another thread while this one
        // starts the event loop: neither needs the loop, and a group that is not in
        // /etc/group makes NSS load and ask its other modules, which may wait.
        let inputs = Task.detached { try StartupInputs(configuration) }
        try MainThreadEventLoop.run { eventLoop, runner in
            try await run(configuration, inputs: try await inputs.value, on: eventLoop, runner: runner, logger: logger)
        }
    }

    private static func run(
        _ configuration: DaemonConfiguration, inputs: StartupInputs, on eventLoop: any EventLoop,
        runner: MainThreadEventLoop.Runner, logger: Logger
    ) async throws {
        let connections = ConnectionCounter()
        let board = FollowerBoard()
        let metrics = DaemonMetrics.bootstrap()
        let endpoint = try VarlinkServer.Endpoint(configuration, group: inputs.allowedGroupIDs.first)
        let trees = try await runner.value {
            try DaemonTrees.load(
                inputs.treeFile, configuration: configuration, socket: endpoint.path, connections: connections,
                followers: board, runner: runner, metrics: metrics, logger: logger)
        }
        let limits = DescriptorLimit.fit(configuration.limits, logger: logger)
        let policy = AccessPolicy(daemonUID: geteuid(), grantingGroupIDs: Set(inputs.allowedGroupIDs))
        let server = VarlinkServer(
            endpoint: endpoint, eventLoops: eventLoop, processors: [trees.processor],
            configuration: .appState(limits: limits), runner: runner,
            access: PeerAccess(policy: policy, logger: logger), connections: connections, metrics: metrics,
            logger: logger)
        let followers = await runner.value { DaemonFollowers.make(configuration, trees: trees, runner: runner, board: board, logger: logger) }
        let retarget: @MainActor @Sendable (HostedTreeFile) -> Void = { file in
            let routes = DaemonFollowers.routes(configuration, trees: trees.host.trees, specs: file.trees, logger: logger)
            trees.processor.follow(routes)
            followers.follow(routes)
        }
        let systemd = SystemdLink(readiness: Readiness(), notifier: SystemdNotifier(), runner: runner, logger: logger)
        let status = DaemonStatus(trees: trees, server: server)
        // Trapped before any service starts, so that a SIGHUP after READY=1 always reloads.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(
                service: VarlinkServerService(server: server, processor: trees.processor, status: status, systemd: systemd),
                serviceName: "VarlinkServerService"),
            .init(
                service: ReloadService(
                    hangups: hangups, host: trees.host, treeFile: configuration.files.treeFile, status: status,
                    systemd: systemd, retarget: retarget),
                serviceName: "ReloadService"),
        ]
        // After the server, so that a graceful shutdown stops the followers before it drains.
        // Always: a reload may make a tree follow a seat or an output.
        services.append(.init(service: FollowerService(roster: followers, logger: logger), serviceName: "FollowerService"))
        if let interval = systemd.notifier.watchdogInterval {
            services.append(.init(service: WatchdogService(interval: interval, systemd: systemd), serviceName: "WatchdogService"))
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ))
        try await group.run()
    }
}
