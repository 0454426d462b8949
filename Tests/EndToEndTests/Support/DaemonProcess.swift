import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The real `appstated`, started on a temporary socket and state directory with a real
/// datagram socket as `NOTIFY_SOCKET`; ready once it says `READY=1`.
final class DaemonProcess {
    let directory: URL
    let socketPath: String
    let stateDirectory: String
    let notify: NotifySocket
    private(set) var process: Process
    private let arguments: [String]
    private let environment: [String: String]
    /// The datagrams received up to and including `READY=1`.
    private(set) var startupMessages: [String] = []

    /// Starts the daemon and waits for `READY=1`.
    /// - Parameters:
    ///   - arguments: Extra options (e.g. `--tree-file`).
    ///   - environment: Extra environment variables.
    ///   - directory: Reuse a directory (and so the state) of an earlier daemon.
    init(arguments: [String] = [], environment: [String: String] = [:], directory: URL? = nil,
         file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try directory ?? DaemonProcess.makeTemporaryDirectory()
        self.directory = directory
        socketPath = directory.appendingPathComponent("io.appstate").path
        stateDirectory = directory.appendingPathComponent("state").path
        notify = try NotifySocket(directory: directory.appendingPathComponent("n-\(UUID().uuidString.prefix(8))", isDirectory: true).creatingDirectory())
        self.arguments = ["--socket", socketPath, "--state-dir", stateDirectory] + arguments
        self.environment = daemonEnvironment(notifySocket: notify.path, environment)
        process = Process()
        try launch(file: file, line: line)
    }

    private func launch(file: StaticString, line: UInt) throws {
        process = Process()
        process.executableURL = Products.appstated
        process.arguments = arguments
        process.environment = environment
        let log = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try process.runAsTestChild()
        guard let messages = notify.waitFor("READY=1") else {
            process.terminate()
            process.waitUntilExit()
            XCTFail("appstated did not send READY=1: \(stderrText)", file: file, line: line)
            throw POSIXError(.ETIMEDOUT)
        }
        startupMessages = messages
    }

    /// What the daemon wrote to stderr so far, across restarts.
    var stderrText: String {
        (try? String(contentsOf: directory.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
    }

    /// Sends a signal.
    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        signal(SIGTERM)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Kills the daemon with SIGKILL, as a crash would.
    func kill9() {
        signal(SIGKILL)
        process.waitUntilExit()
    }

    /// Starts the daemon again on the same socket and state directory.
    func restart(file: StaticString = #filePath, line: UInt = #line) throws {
        try launch(file: file, line: line)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    static func makeTemporaryDirectory() throws -> URL {
        // Short, because a Unix socket path is limited to 107 bytes.
        let url = URL(fileURLWithPath: "/tmp/as-\(UUID().uuidString.prefix(8))", isDirectory: true)
        return try url.creatingDirectory()
    }
}

extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
