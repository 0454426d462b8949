import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `appstated` on a socket and state directory of its own, started with a real
/// datagram socket as `NOTIFY_SOCKET` and ready once it says `READY=1`; what the end-to-end
/// tests and `appstate-crashtest` run.
public final class TestDaemon {
    /// The directory that holds the socket, the state and the daemon's stderr.
    public let directory: URL
    /// The daemon's socket.
    public let socketPath: String
    /// The daemon's state directory.
    public let stateDirectory: String
    /// Where the daemon sends `READY=1` and the rest.
    public let notify: NotifySocket
    /// The running daemon (or the wrapper that `exec`s it).
    public private(set) var process = Process()
    /// The datagrams received up to and including the last `READY=1`.
    public private(set) var startupMessages: [String] = []
    private let command: [String]
    private let environment: [String: String]
    private let removesDirectory: Bool

    /// Starts the daemon and waits for `READY=1`.
    /// - Parameters:
    ///   - executable: The `appstated` to run.
    ///   - wrapper: A command line to put in front of it (`setpriv`, `unshare`…), which must
    ///     `exec` the daemon so that the process started is the daemon itself.
    ///   - arguments: Extra options (e.g. `--tree-file`).
    ///   - environment: Extra environment variables.
    ///   - directory: Reuse a directory (and so the state) of an earlier daemon; it is then
    ///     left in place when this one goes.
    ///   - owner: A uid and gid to give the directory to, for a daemon that is not root.
    /// - Throws: ``TestFailure`` with the daemon's stderr when it does not get ready.
    public init(
        executable: URL, wrapper: [String] = [], arguments: [String] = [], environment: [String: String] = [:],
        directory: URL? = nil, owner: (uid: uid_t, gid: gid_t)? = nil
    ) throws {
        removesDirectory = directory == nil
        self.directory = try directory ?? Self.makeTemporaryDirectory()
        socketPath = self.directory.appendingPathComponent("io.appstate").path
        stateDirectory = self.directory.appendingPathComponent("state").path
        let notifyDirectory = self.directory.appendingPathComponent("n-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: notifyDirectory, withIntermediateDirectories: true)
        notify = try NotifySocket(directory: notifyDirectory)
        if let owner {
            chmod(self.directory.path, 0o755)
            chown(self.directory.path, owner.uid, owner.gid)
            chmod(notifyDirectory.path, 0o755)
            chmod(notify.path, 0o666)
        }
        command = wrapper + [executable.path, "--socket", socketPath, "--state-dir", stateDirectory] + arguments
        self.environment = daemonEnvironment(notifySocket: notify.path, environment)
        try restart()
    }

    /// Starts the daemon (again) on the same socket and state directory, and waits for `READY=1`.
    /// - Throws: ``TestFailure`` with the daemon's stderr when it does not get ready.
    public func restart() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        let log = directory.appendingPathComponent("stderr.log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try process.runAsTestChild()
        let process = process
        guard let messages = notify.waitFor("READY=1", while: { process.isRunning }) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw TestFailure("appstated did not send READY=1 (exit \(process.terminationStatus)): \(stderrText)")
        }
        startupMessages = messages
    }

    /// The daemon's process id.
    public var pid: pid_t { process.processIdentifier }

    /// What the daemon wrote to stderr so far, across restarts.
    public var stderrText: String {
        (try? String(contentsOf: directory.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
    }

    /// Sends a signal.
    /// - Parameter number: The signal, e.g. `SIGHUP`.
    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends SIGTERM and waits for the exit status.
    /// - Returns: The status; the earlier one when the daemon already exited.
    @discardableResult
    public func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        signal(SIGTERM)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Kills the daemon with SIGKILL, as a crash or power cut of the process would.
    public func kill9() {
        signal(SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        if removesDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A new directory for a daemon: short, because a Unix socket path is limited to 107 bytes.
    /// - Returns: The directory, created.
    /// - Throws: What creating it throws.
    public static func makeTemporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/as-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
