import Logging

extension SystemdNotifier {
    /// Sends a notification, logging why when it cannot be delivered. Without
    /// `NOTIFY_SOCKET` nothing is sent and nothing fails; a failure is a real one (the service
    /// manager went away, the socket is full), and no reason to stop serving.
    /// - Parameters:
    ///   - logger: Where a failure is logged.
    ///   - notification: The notification, e.g. `{ try $0.stopping() }`.
    func notify(logging logger: Logger, _ notification: (SystemdNotifier) throws -> Void) {
        do {
            try notification(self)
        } catch {
            logger.warning("cannot notify systemd: \(error)")
        }
    }
}
