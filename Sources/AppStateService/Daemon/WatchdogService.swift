import Logging
import ServiceLifecycle

/// Pings systemd's watchdog (`WATCHDOG=1`) at an interval once the daemon is ready. Each ping
/// is sent from the main actor, where the trees live, so that a hung tree stops the pings and
/// systemd restarts the daemon.
struct WatchdogService: Service {
    /// The time between pings: half of `WATCHDOG_USEC`, as ``SystemdNotifier/watchdogInterval`` gives it.
    let interval: Duration
    /// What the first ping waits for, so that systemd hears `READY=1` first.
    let readiness: Readiness
    /// Where the pings go.
    let notifier: SystemdNotifier
    /// Where a ping that cannot be sent is logged.
    let logger: Logger

    func run() async throws {
        guard await readiness.wait() else { return }
        let (interval, notifier, logger) = (self.interval, self.notifier, self.logger)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await MainActor.run {
                    notifier.notify(logging: logger) { try $0.watchdog() }
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
