import Logging
import ServiceLifecycle

/// Pings systemd's watchdog (`WATCHDOG=1`) at an interval once the daemon is ready. Each ping
/// is sent from the main actor, where the trees live, so that a hung tree stops the pings and
/// systemd restarts the daemon.
struct WatchdogService: Service {
    /// The time between pings: half of `WATCHDOG_USEC`, as ``SystemdNotifier/watchdogInterval`` gives it.
    let interval: Duration
    /// How the service tells systemd, and where it logs.
    let systemd: SystemdLink

    func run() async throws {
        guard await systemd.readiness.waitAsService() else { return }
        let (interval, systemd) = (self.interval, self.systemd)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await systemd.runner.value {
                    systemd.notify { try $0.watchdog() }
                }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    // Cancelled: the daemon stops.
                    return
                }
            }
        }
    }
}
