import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A Varlink service in a process of its own, ready once it printed that it listens (the
/// certification services, ours and Python's, say "Listening on …" first); stopped by its pid
/// when released.
final class ListeningProcess {
    let process = Process()
    /// The socket it listens on.
    let socketPath: String
    private let errors: URL

    /// Starts the service and waits for its first line.
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: Its arguments; `{address}` is replaced by `unix:` and the socket's path.
    ///   - directory: Where the socket and the service's stderr go.
    /// - Throws: ``TestFailure`` with its stderr when it prints no "Listening on" line.
    init(_ executable: URL, _ arguments: [String], in directory: URL) throws {
        socketPath = directory.appendingPathComponent("certification").path
        errors = directory.appendingPathComponent("stderr")
        process.executableURL = executable
        process.arguments = arguments.map { $0.replacing("{address}", with: "unix:" + socketPath) }
        let output = Pipe()
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.runAsTestChild()
        let line = try GatewayProcess.firstLine(of: output.fileHandleForReading.fileDescriptor)
        guard line.hasPrefix("Listening on") else {
            stop()
            throw TestFailure("\(executable.lastPathComponent) did not listen: \(line) \(standardError)")
        }
    }

    /// What it wrote to stderr so far.
    var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for it to exit.
    /// - Returns: Its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
