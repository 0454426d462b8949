import Logging
import ServicePorts

/// What each of the daemon's services needs to talk to systemd: when it may (after the first
/// `READY=1`), how, where a failure to do so is logged, and how to reach the main actor,
/// where the trees it reports on live.
struct SystemdLink: Sendable {
    /// Settled once the first `READY=1` is sent, or when the server stops before that.
    let readiness: Readiness
    /// Where systemd is told.
    let notifier: SystemdNotifier
    /// How the services reach the main actor.
    let runner: any MainActorRunner
    /// Where the services log.
    let logger: Logger

    /// Sends a notification; a failure is logged, since systemd may not be listening at all.
    /// - Parameter notification: The notification, e.g. `{ try $0.stopping() }`.
    func notify(_ notification: (SystemdNotifier) throws -> Void) {
        do {
            try notification(notifier)
        } catch {
            logger.warning("cannot notify systemd: \(error)")
        }
    }
}
