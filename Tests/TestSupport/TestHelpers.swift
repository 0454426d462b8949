import Foundation

/// Runs `body` with environment variables set (or, for `nil` values, unset), then restores
/// their previous values, so tests that touch the environment leave no trace.
public func withEnvironment<T>(_ changes: [String: String?], _ body: () throws -> T) rethrows -> T {
    var previous: [String: String?] = [:]
    for (name, value) in changes {
        previous[name] = getenv(name).map { String(cString: $0) }
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }
    defer {
        for (name, value) in previous {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }
    return try body()
}

/// A fresh directory under /tmp (short, so socket paths fit in `sun_path`), removed with
/// everything in it when the value is released.
public final class TemporaryDirectory {
    /// The directory's absolute path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        var template = Array("/tmp/appstate-test.XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        path = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The process's file mode creation mask, which `umask(2)` can only read by setting it.
public func currentUmask() -> mode_t {
    let mask = umask(0o022)
    umask(mask)
    return mask
}

/// Waits up to `timeout` for `descriptor` to become readable.
public func waitReadable(_ descriptor: CInt, timeout: Duration) -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = CInt(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    return poll(&poller, 1, milliseconds) == 1
}

/// What a finished child process left.
public struct ProcessOutput {
    /// The exit status.
    public var status: Int32
    /// What it wrote to standard output.
    public var standardOutput: String
    /// What it wrote to standard error.
    public var standardError: String
}

/// Runs a program to completion, its output captured in files (pipes could fill up and
/// block the child while nobody reads them).
///
/// - Parameters:
///   - executable: An absolute path, or a name looked up in `PATH`.
///   - arguments: The arguments.
///   - environment: The child's environment; the test process's when `nil`.
public func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ProcessOutput {
    let directory = try TemporaryDirectory()
    let outputURL = URL(fileURLWithPath: directory.path + "/stdout")
    let errorURL = URL(fileURLWithPath: directory.path + "/stderr")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try resolveExecutable(executable))
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorURL)
    try process.runAsTestChild()
    process.waitUntilExit()
    return ProcessOutput(
        status: process.terminationStatus,
        standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
        standardError: try String(contentsOf: errorURL, encoding: .utf8)
    )
}

/// Paths of the checkout and of the build products the tests run.
public enum TestPaths {
    /// The repository root, from this file's place in it.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // TestSupport
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    /// The running test executable (on Linux the `.xctest` bundle is the executable).
    public static var testExecutable: String {
        get throws { try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") }
    }

    /// The directory `swift build` put the products in: the test executable's, where
    /// `swift test` and `make test` also build `appstated`.
    public static var productsDirectory: String {
        get throws { (try testExecutable as NSString).deletingLastPathComponent }
    }
}
