import AppStateHost
import Logging
import ServiceLifecycle
import StateContainers
import TreeFiles
import UnixSignals

/// Reloads the tree file on SIGHUP, keeping the restorable state, and tells systemd:
/// `RELOADING=1`, then `READY=1` with the status. What each tree follows is read again with
/// the file (its `logindSeat` and `output`), so the followers and the gates follow the new
/// trees. A tree file that no longer loads is logged and the running trees stay.
struct ReloadService: Service {
    /// SIGHUP, trapped before the daemon says it is ready, so that a SIGHUP after `READY=1` always reloads.
    let hangups: UnixSignalsSequence
    /// The trees to rebuild.
    let host: TreeHost
    /// The tree file; nil for the embedded default tree.
    let treeFile: String?
    /// The status line sent with `READY=1`.
    let status: DaemonStatus
    /// How the service tells systemd, and where it logs.
    let systemd: SystemdLink
    /// Takes the reloaded file: works out what the new trees follow and hands it to the
    /// followers and the gates.
    let retarget: @MainActor @Sendable (HostedTreeFile) -> Void

    func run() async throws {
        guard await systemd.readiness.waitAsService() else { return }
        for await _ in hangups.cancelOnGracefulShutdown() {
            systemd.notify { try $0.reloading() }
            let line = await systemd.runner.value { reload() }
            systemd.notify { try $0.ready(status: line) }
        }
    }

    /// Rebuilds the trees from the tree file, keeping the restorable state.
    /// - Returns: The status line after the reload.
    @MainActor private func reload() -> String {
        do {
            let file = try TreeFileLoader.load(pathOrDefault: treeFile)
            try host.reload(file)
            retarget(file)
            systemd.logger.info("reloaded", metadata: ["trees": "\(host.treeNames.joined(separator: ","))"])
        } catch {
            systemd.logger.error("reload failed, keeping the running trees: \(error)")
        }
        return status.line
    }
}
