import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A value shared with a background thread of a test.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func with<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    var current: Value { with { $0 } }
}

/// Runs `body` on a thread of its own; `join()` waits for it.
final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.start()
    }

    func join() { done.wait() }
}

enum Reliability {
    /// Why a process's resident memory could not be read: a memory bound must fail then,
    /// not pass with a figure of 0.
    struct UnreadableMemory: Error, CustomStringConvertible {
        let pid: pid_t
        let reason: String
        var description: String { "cannot read the resident memory of process \(pid) from /proc/\(pid)/status: \(reason)" }
    }

    /// The resident memory of a process in KiB, from `/proc/PID/status` (`VmRSS`).
    /// - Throws: ``UnreadableMemory`` when the file cannot be read or has no `VmRSS` line
    ///   (no `/proc`, or the process is gone), so that a test bounding memory fails.
    static func residentKiB(of pid: pid_t) throws -> Int {
        let status: String
        do {
            status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        } catch {
            throw UnreadableMemory(pid: pid, reason: "\(error)")
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            guard let kiB = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
                throw UnreadableMemory(pid: pid, reason: "unexpected line \"\(line)\"")
            }
            return kiB
        }
        throw UnreadableMemory(pid: pid, reason: "no VmRSS line")
    }

    /// The sanitizer this test executable was built with (`scripts/sanitize`), and so the
    /// `appstated` built next to it, found by its runtime's entry point; nil in `make test`.
    static let sanitizer: String? = {
        if dlsym(nil, "__asan_init") != nil { return "AddressSanitizer" }
        if dlsym(nil, "__tsan_init") != nil { return "ThreadSanitizer" }
        return nil
    }()

    /// Asserts that the daemon's resident memory grew less than `limit` KiB, except under a
    /// sanitizer, where it measures the sanitizer's allocator rather than the daemon's:
    /// AddressSanitizer keeps up to 256 MiB of freed blocks in quarantine to catch use after
    /// free, and both add shadow memory and bookkeeping to every allocation. `make test`
    /// asserts every bound; a sanitized run prints the figure instead.
    static func assertResidentGrowth(
        _ growth: Int, below limit: Int, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        if let sanitizer {
            report("memory bound not asserted under \(sanitizer): \(message) (bound \(limit) KiB)")
        } else {
            XCTAssertLessThan(growth, limit, message, file: file, line: line)
        }
    }

    /// The number of open descriptors of a process.
    static func openDescriptors(of pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// Whether a process is alive (and not a zombie).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)...].first
        return state != "Z" && state != "X"
    }

    /// A whole tree snapshot, for before/after comparisons.
    static func tree(_ socketPath: String) throws -> JSONValue {
        let client = try VarlinkClient(path: socketPath, timeout: .seconds(30))
        return .object(try client.call(method: "io.appstate.GetTree"))
    }

    /// A snapshot without the geometry of nodes that are off screen. A view, once loaded,
    /// stays loaded (as in UIKit): a refused change that loaded a view and was rolled back
    /// leaves that off-screen view laid out, which says nothing about which children are
    /// current. Everything on screen, and every node's state, is kept.
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var members):
            if members["onScreen"] == .bool(false) {
                members["frame"] = nil
                members["contentInset"] = nil
            }
            return .object(members.mapValues(normalized))
        case .array(let elements):
            return .array(elements.map(normalized))
        default:
            return value
        }
    }

    /// The first place where two JSON values differ, in words, or nil when they are equal.
    static func difference(_ a: JSONValue, _ b: JSONValue, at path: String = "") -> String? {
        switch (a, b) {
        case (.object(let left), .object(let right)):
            for key in Set(left.keys).union(right.keys).sorted() {
                let name = left["path"]?.stringValue ?? path
                guard let l = left[key], let r = right[key] else { return "\(name).\(key): present on one side only" }
                if let found = difference(l, r, at: name) { return found }
            }
            return nil
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return "\(path): \(left.count) elements, then \(right.count)" }
            for (l, r) in zip(left, right) {
                if let found = difference(l, r, at: path) { return found }
            }
            return nil
        default:
            return a == b ? nil : "\(path): \(a) then \(b)"
        }
    }

    /// Waits until `condition` holds, polling every 20 ms, for at most `timeout` seconds.
    @discardableResult
    static func wait(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// The percentile of a sorted list of durations in milliseconds.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let components = duration.components
        return Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    /// Runs a program with a time limit, killing it when it overruns (a daemon that started
    /// when it should have refused, or a hang).
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 15) throws
        -> (status: Int32, signaled: Bool, stderr: String, timedOut: Bool)
    {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = daemonEnvironment(notifySocket: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.runAsTestChild()
        let finished = wait(timeout: timeout) { !process.isRunning }
        if !finished { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (
            process.terminationStatus, process.terminationReason == .uncaughtSignal,
            (try? String(contentsOf: log, encoding: .utf8)) ?? "", !finished
        )
    }

    /// Prints a figure of the run, easy to find in the test log: RELIABILITY.md's pages copy none.
    static func report(_ text: String) {
        print("[reliability] \(text)")
    }
}

/// A Unix socket client for hand-written frames that keeps what it received between reads,
/// so that frames can be taken one at a time, and tells a refused connect from a closed one.
final class ProbeConnection {
    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var isClosed = false

    /// Connects, or throws the connect error (e.g. `EACCES`, `EAGAIN`).
    /// - Parameter nonBlocking: Connect without waiting, as sd-varlink does: a full listen
    ///   backlog then fails with `EAGAIN` instead of waiting. The socket blocks afterwards.
    init(path: String, nonBlocking: Bool = false) throws {
        fd = try unixSocket(connectedTo: path, flags: nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
    }

    deinit { Glibc.close(fd) }

    /// Sends bytes as they are; returns false when the peer is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    func send(frame text: String) -> Bool { send(Array(text.utf8) + [0]) }

    /// Sends what the socket takes without waiting; returns the number of bytes taken, or
    /// -1 when the peer is gone.
    func sendWithoutWaiting(_ bytes: [UInt8]) -> Int {
        let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        if written < 0 { return errno == EAGAIN || errno == EINTR ? 0 : -1 }
        return written
    }

    /// Shuts down the sending side, as `printf … | socat` does at the end of its input.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next frame as raw bytes, or nil when the peer closed or nothing came in time.
    func nextRawFrame(timeout: Double = 10) -> [UInt8]? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let frame = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return frame
            }
            guard !isClosed else { return nil }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, remaining * 1000)))
            if ready < 0, errno == EINTR { continue }
            guard ready == 1 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let received = recv(fd, &chunk, chunk.count, 0)
            if received < 0, errno == EINTR { continue }
            if received <= 0 {
                isClosed = true
                continue
            }
            buffer.append(contentsOf: chunk[0..<received])
        }
    }

    /// The next frame as a JSON object (`["unparsable": text]` when it is not one).
    func nextFrame(timeout: Double = 10) -> [String: Any]? {
        guard let frame = nextRawFrame(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(frame))) as? [String: Any]
            ?? ["unparsable": String(decoding: frame, as: UTF8.self)]
    }

    /// Whether the peer closed the connection within `timeout` seconds, discarding frames.
    func waitForClose(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !isClosed, deadline.timeIntervalSinceNow > 0 {
            _ = nextRawFrame(timeout: deadline.timeIntervalSinceNow)
        }
        return isClosed
    }
}
