import Logging
import ServiceLifecycle
import StateContainers
import UnixSignals

/// Reloads the tree file on SIGHUP, keeping the restorable state, and tells systemd:
/// `RELOADING=1`, then `READY=1` with the status. A tree file that no longer loads is logged
/// and the running trees stay.
struct ReloadService: Service {
    private let hangups: UnixSignalsSequence
    private let host: TreeHost
    private let treeFile: String?
    private let status: DaemonStatus
    private let readiness: Readiness
    private let notifier: SystemdNotifier
    private let logger: Logger

    /// Creates the service.
    /// - Parameters:
    ///   - hangups: SIGHUP, trapped before the daemon says it is ready, so that a SIGHUP
    ///     after `READY=1` always reloads.
    ///   - host: The trees to rebuild.
    ///   - treeFile: The tree file; nil for the embedded default tree.
    ///   - status: The status line sent with `READY=1`.
    ///   - readiness: What reloads wait for, so that systemd hears the first `READY=1` first.
    ///   - notifier: Where systemd is told.
    ///   - logger: Where reloads are logged.
    init(hangups: UnixSignalsSequence, host: TreeHost, treeFile: String?, status: DaemonStatus, readiness: Readiness,
         notifier: SystemdNotifier, logger: Logger) {
        self.hangups = hangups
        self.host = host
        self.treeFile = treeFile
        self.status = status
        self.readiness = readiness
        self.notifier = notifier
        self.logger = logger
    }

    func run() async throws {
        guard await readiness.wait() else { return }
        for await _ in hangups.cancelOnGracefulShutdown() {
            notifier.notify(logging: logger) { try $0.reloading() }
            let line = await reload()
            notifier.notify(logging: logger) { try $0.ready(status: line) }
        }
    }

    /// Rebuilds the trees from the tree file, keeping the restorable state.
    /// - Returns: The status line after the reload.
    @MainActor private func reload() -> String {
        do {
            let file = try treeFile.map { try TreeFileLoader.load(path: $0) } ?? TreeFile.default
            try host.reload(file)
            logger.info("reloaded", metadata: ["trees": "\(host.treeNames.joined(separator: ","))"])
        } catch {
            logger.error("reload failed, keeping the running trees: \(error)")
        }
        return status.line
    }
}
