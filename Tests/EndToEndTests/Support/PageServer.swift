import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The pages of `Tests/Browser/page_server.py`, served on 127.0.0.1 by the test: each page
/// reports what it sees to the server, which prints every request as a JSON line that this
/// class collects, so a test reads what the browser did without driving it.
final class PageServer: @unchecked Sendable {
    private static let script = Products.repository.appendingPathComponent("Tests/Browser/page_server.py").path

    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var received: [[String: Any]] = []
    /// The port it listens on.
    let port: Int

    /// Starts the server and waits for its port.
    /// - Parameter port: The port to listen on, for a server started again; a free one when nil.
    init(port: Int? = nil) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: BusMock.python)
        process.arguments = [Self.script] + (port.map { [String($0)] } ?? [])
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runAsTestChild()
        let line = try GatewayProcess.firstLine(of: output.fileHandleForReading.fileDescriptor)
        guard line.hasPrefix("listening on "), let port = Int(line.dropFirst("listening on ".count)) else {
            throw TestFailure("the page server did not start: \(line)")
        }
        self.port = port
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            while let line = Self.readLine(reader) {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                lock.withLock { received.append(object) }
            }
        }
    }

    deinit { stop() }

    /// The URL of a page.
    /// - Parameter path: The page's path and query, e.g. `/home?remember=ada`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The requests so far, each as `{"path": …, "query": {…}}`, polls of `/command` left out.
    var requests: [[String: Any]] {
        lock.withLock { received.filter { $0["path"] as? String != "/command" } }
    }

    /// The requests for a page's own path (its loads).
    /// - Parameter path: The path, e.g. `/home`.
    func loads(of path: String) -> Int {
        requests.filter { $0["path"] as? String == path }.count
    }

    /// The reports pages sent, as `page`, `event`, `innerHeight`, `cookie`, `storage`,
    /// `current` and `keyboard`.
    var reports: [[String: String]] {
        requests.filter { $0["path"] as? String == "/report" }.compactMap { $0["query"] as? [String: String] }
    }

    /// Waits for a report that satisfies `condition`, after the first `skipping` reports.
    /// - Returns: The report.
    /// - Throws: ``TestFailure`` naming `what` and every report when none comes in time.
    @discardableResult
    func waitForReport(_ what: String, after skipping: Int = 0, timeout: TimeInterval = 20, _ condition: ([String: String]) -> Bool) throws
        -> [String: String]
    {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let report = reports.dropFirst(skipping).first(where: condition) { return report }
            usleep(20_000)
        } while Date() < deadline
        throw TestFailure("no report of \(what) within \(timeout) s; the pages reported \(reports.dropFirst(skipping))")
    }

    /// Tells a page what to do next: `focus`, `blur` or `navigate PATH`; the page polls for it.
    /// - Parameters:
    ///   - page: The page's name (its path without `/`).
    ///   - command: The command.
    func tell(_ page: String, _ command: String) {
        input.fileHandleForWriting.write(Data("\(page) \(command)\n".utf8))
    }

    /// Stops the server.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    private static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(handle.fileDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}
