import Logging
import ServiceLifecycle

/// Pings systemd's watchdog (`WATCHDOG=1`) at an interval once the daemon is ready. Each ping
/// is sent from the main actor, where the trees live, so that a hung tree stops the pings and
/// systemd restarts the daemon.
struct WatchdogService: Service {
    private let interval: Duration
    private let readiness: Readiness
    private let notifier: SystemdNotifier
    private let logger: Logger

    /// Creates the service.
    /// - Parameters:
    ///   - interval: The time between pings: half of `WATCHDOG_USEC`, as
    ///     ``SystemdNotifier/watchdogInterval`` gives it.
    ///   - readiness: What the first ping waits for, so that systemd hears `READY=1` first.
    ///   - notifier: Where the pings go.
    ///   - logger: Where a ping that cannot be sent is logged.
    init(interval: Duration, readiness: Readiness, notifier: SystemdNotifier, logger: Logger) {
        self.interval = interval
        self.readiness = readiness
        self.notifier = notifier
        self.logger = logger
    }

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
