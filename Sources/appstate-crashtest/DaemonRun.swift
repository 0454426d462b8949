import Foundation
import TestSupport
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
        unlink(notifyPath)
        notifyFD = try unixSocket(SOCK_DGRAM, boundTo: notifyPath)
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
        process.environment = daemonEnvironment(notifySocket: notifyPath)
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
