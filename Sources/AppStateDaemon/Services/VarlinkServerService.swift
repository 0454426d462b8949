import AppStateHost
import AppStateIPC
import Logging
import ServiceLifecycle
import VarlinkServer

/// The Varlink socket as a service: it listens, tells systemd that the daemon is ready
/// (`READY=1` with the status), and on graceful shutdown tells systemd that it is stopping
/// (`STOPPING=1`), ends the `Watch` streams and drains the connections.
struct VarlinkServerService: Service {
    /// The socket to listen on and how its connections are answered.
    let server: VarlinkServer
    /// The processor whose `Watch` streams end when the daemon stops.
    let processor: RequestProcessor
    /// The status line sent with `READY=1`.
    let status: DaemonStatus
    /// How the service tells systemd, and where it logs.
    let systemd: SystemdLink

    func run() async throws {
        // Whatever ends this service, nothing waits for a READY=1 that will not come.
        defer { systemd.readiness.settle(isReady: false) }
        let listener = try await server.listen()
        let line = await systemd.runner.value { status.line }
        systemd.notify { try $0.ready(status: line) }
        systemd.logger.info(
            "appstated \(AppStateVersion.current) listening on \(status.socketDescription)",
            metadata: ["socket": "\(status.socketDescription)"])
        systemd.readiness.settle(isReady: true)
        do {
            try await gracefulShutdown()
        } catch is CancellationError {
            // Cancelled rather than shut down, since another service failed: stop all the
            // same, so that the socket file goes and the clients are answered.
        }
        systemd.notify { try $0.stopping() }
        systemd.logger.info("stopping")
        await systemd.runner.value { processor.closeWatchers() }
        await listener.drain()
    }
}
