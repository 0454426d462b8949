import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A private D-Bus bus from `dbus-daemon`, standing in for the system or the session bus: it
/// listens on a socket path of its own, so that it can be stopped and started again at the
/// same address, as a bus that goes away and comes back.
final class PrivateBus {
    /// The socket's path.
    let path: String
    /// The address clients are given (`DBUS_SYSTEM_BUS_ADDRESS`, `DBUS_SESSION_BUS_ADDRESS`).
    var address: String { "unix:path=\(path)" }
    private var process: Process?

    /// Starts a bus listening on `path`.
    init(path: String) throws {
        self.path = path
        try start()
    }

    /// Starts the bus again after ``stop()``, at the same address.
    func start() throws {
        unlink(path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try resolveExecutable("dbus-daemon"))
        // The session configuration lets any connection own any name, as the mocks need.
        process.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAsTestChild()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while access(path, F_OK) != 0 {
            guard Date() < deadline, process.isRunning else { throw TestFailure("dbus-daemon did not listen on \(path)") }
            usleep(10_000)
        }
    }

    /// Stops the bus: every connection to it breaks.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    deinit {
        stop()
        unlink(path)
    }
}
