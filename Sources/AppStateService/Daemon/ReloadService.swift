import Logging
import ServiceLifecycle
import StateContainers
import UnixSignals

/// Reloads the tree file on SIGHUP, keeping the restorable state, and tells systemd:
/// `RELOADING=1`, then `READY=1` with the status. A tree file that no longer loads is logged
/// and the running trees stay.
struct ReloadService: Service {
    /// SIGHUP, trapped before the daemon says it is ready, so that a SIGHUP after `READY=1` always reloads.
    let hangups: UnixSignalsSequence
    /// The trees to rebuild.
    let host: TreeHost
    /// The tree file; nil for the embedded default tree.
    let treeFile: String?
    /// The status line sent with `READY=1`.
    let status: DaemonStatus
    /// What reloads wait for, so that systemd hears the first `READY=1` first.
    let readiness: Readiness
    /// Where systemd is told.
    let notifier: SystemdNotifier
    /// Where reloads are logged.
    let logger: Logger

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
