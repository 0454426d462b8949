import AppStateIPC
import Logging
import NIOConcurrencyHelpers
import ServicePorts

/// Asks logind to lock the active session of a seat (`org.freedesktop.login1.Session.Lock`),
/// on a thread and a system bus connection of its own, so that neither the main actor nor a
/// follower's thread waits for logind. The seats' followers tell it which session is active.
package final class LogindSessionLocker: SystemSessionLocker {
    /// A pthread mutex (NIOLockedValueBox), which ThreadSanitizer sees, unlike
    /// `Synchronization.Mutex`'s futex on Linux.
    private let activeSessions = NIOLockedValueBox<[String: String]>([:])
    private let logger: Logger

    /// Creates the locker.
    /// - Parameter logger: Where a lock logind refused is logged.
    package init(logger: Logger) {
        self.logger = logger
    }

    /// Records the object path of a seat's active session; nil for none. From any thread.
    func record(activeSession path: String?, seat: String) {
        activeSessions.withLockedValue { $0[seat] = path }
    }

    package func lockSession(seat: String) {
        guard let path = activeSessions.withLockedValue({ $0[seat] }) else {
            logger.warning("cannot lock the session on \(seat): logind names no active session there")
            return
        }
        let logger = self.logger
        let started = DetachedThread.start {
            do throws(BusError) {
                let connection = try BusConnection(.system)
                _ = try connection.call(LogindSeatState.busName, path, LogindSeatState.sessionInterface, "Lock")
            } catch {
                logger.error("logind did not lock the session on \(seat): \(error)")
            }
        }
        if started != 0 {
            logger.error("cannot start a thread to lock the session on \(seat)")
        }
    }
}
