import Foundation
import TestSupport

/// Runs a program to completion and captures what it printed.
struct Command {
    let status: Int32
    let stdout: String
    let stderr: String

    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        input: [UInt8]? = nil
    ) throws -> Command {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let err = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let stdin = Pipe()
        process.standardInput = stdin
        try process.runAsTestChild()
        // A child that exits without reading its input makes this write fail with EPIPE:
        // the run is still reported, with what the child printed.
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: input) }
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return Command(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
    }
}
