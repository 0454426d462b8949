import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One `appstated` process on a socket and state directory, started with a real datagram
/// socket as `NOTIFY_SOCKET` and ready once it sent `READY=1`.
final class DaemonRun {
    let appstated: String
    let socketPath: String
    let stateDirectory: String
    let logPath: String
    private(set) var process = Process()
    private let notifyPath: String
    private let notifyFD: Int32

    init(appstated: String, directory: String) throws {
        self.appstated = appstated
        socketPath = directory + "/s"
        stateDirectory = directory + "/state"
        logPath = directory + "/stderr.log"
        notifyPath = directory + "/notify"
        notifyFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard notifyFD >= 0 else { throw CrashTestError("socket: \(String(cString: strerror(errno)))") }
        unlink(notifyPath)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(notifyPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw CrashTestError("path too long: \(notifyPath)") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notifyFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw CrashTestError("bind \(notifyPath): \(String(cString: strerror(errno)))") }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        close(notifyFD)
    }

    /// Starts the daemon and waits for `READY=1`.
    func start() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: appstated)
        process.arguments = ["--socket", socketPath, "--state-dir", stateDirectory]
        var environment = ProcessInfo.processInfo.environment
        for key in ["JOURNAL_STREAM", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY"] {
            environment.removeValue(forKey: key)
        }
        environment["NOTIFY_SOCKET"] = notifyPath
        process.environment = environment
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        guard waitForReady(timeout: 30) else {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            throw CrashTestError("appstated did not send READY=1 (exit \(process.terminationStatus)): \(stderrText)")
        }
    }

    /// Kills the daemon with SIGKILL, as a crash or power cut of the process would.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Sends SIGTERM and returns the exit status.
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return process.terminationStatus
    }

    var stderrText: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    private func waitForReady(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            var descriptor = pollfd(fd: notifyFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            if ready < 0, errno == EINTR { continue }
            guard ready == 1 else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(notifyFD, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            if message.split(separator: "\n").contains("READY=1") { return true }
        }
        return false
    }
}

struct CrashTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
