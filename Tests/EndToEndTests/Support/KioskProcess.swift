import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The `appstate-kiosk` built beside the tests, driving Debian's chromium headless, in a
/// profile of the test's own.
final class KioskProcess {
    let process = Process()
    private let errors: URL

    /// Starts appstate-kiosk; it runs until ``stop()``.
    /// - Parameters:
    ///   - socket: The daemon's socket.
    ///   - directory: Where the browser's profile and appstate-kiosk's stderr go.
    ///   - arguments: More options, e.g. `--home URL`.
    ///   - browser: The browser to start.
    ///   - environment: More of its environment, e.g. `WAYLAND_DISPLAY`, which it has only when given here.
    init(socket: String, in directory: URL, arguments: [String] = [], browser: String? = nil, environment: [String: String] = [:]) throws {
        errors = directory.appendingPathComponent("kiosk.stderr")
        let profile = directory.appendingPathComponent("profile-\(UUID().uuidString.prefix(8))").path
        process.executableURL = Products.appstateKiosk
        process.arguments =
            [
                "--socket", socket, "--browser", try browser ?? resolveExecutable("chromium"), "--browser-arg=--headless=new",
                "--browser-arg=--no-sandbox", "--browser-arg=--user-data-dir=\(profile)",
            ] + arguments
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        var inherited = ProcessInfo.processInfo.environment
        inherited["WAYLAND_DISPLAY"] = nil
        process.environment = inherited.merging(environment) { $1 }
        try process.runAsTestChild()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// What appstate-kiosk wrote to stderr so far, the browser's own messages left out.
    var messages: String {
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("appstate-kiosk:") }.joined(separator: "\n")
    }

    /// Waits until appstate-kiosk has said something containing `text`, `times` times.
    /// - Throws: ``TestFailure`` with what it said when it does not within `timeout`.
    func waitForMessage(_ text: String, times: Int = 1, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if messages.components(separatedBy: text).count > times { return }
            usleep(20_000)
        } while Date() < deadline && process.isRunning
        throw TestFailure("appstate-kiosk did not say \"\(text)\" \(times) times; it said:\n\(messages)")
    }

    /// ``PageServer/waitForReport(_:after:timeout:_:)`` of the pages this kiosk shows, failing
    /// with what the browser loaded and what appstate-kiosk said.
    @discardableResult
    func waitForReport(
        on pages: PageServer, _ what: String, after skipping: Int = 0, timeout: TimeInterval = 20, _ condition: ([String: String]) -> Bool
    ) throws -> [String: String] {
        do {
            return try pages.waitForReport(what, after: skipping, timeout: timeout, condition)
        } catch {
            let loads = pages.requests.compactMap { $0["path"] as? String }.filter { $0 != "/report" }
            let output = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw TestFailure("\(error); the browser loaded \(loads); appstate-kiosk and the browser said:\n\(output.suffix(3000))")
        }
    }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits for appstate-kiosk to exit by itself.
    /// - Returns: Its exit status.
    func waitForExit(timeout: TimeInterval = 30) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else { throw TestFailure("appstate-kiosk did not exit; it said:\n\(messages)") }
            usleep(20_000)
        }
        return process.terminationStatus
    }
}

extension KioskProcess {
    /// The browser appstate-kiosk started: its child.
    var browserPID: pid_t? { descendants().first { $0.parent == process.processIdentifier }?.pid }

    /// The browser's renderers, which show pages; not those of its own interface.
    var rendererPIDs: [pid_t] {
        descendants().filter { $0.command.contains("--type=renderer") && !$0.command.contains("--top-chrome-webui") }.map(\.pid)
    }

    /// Every process below appstate-kiosk, with its parent and its command line, whose
    /// arguments chromium's helpers join with spaces when they retitle themselves.
    private func descendants() -> [(pid: pid_t, parent: pid_t, command: String)] {
        let processes: [(pid: pid_t, parent: pid_t, command: String)] =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
                guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")"),
                    let parent = pid_t(stat[stat.index(close, offsetBy: 2)...].split(separator: " ")[1]),
                    // Read to its end: /proc's files say they are empty.
                    let command = try? String(contentsOfFile: "/proc/\(name)/cmdline", encoding: .utf8)
                else { return nil }
                return (pid, parent, command.replacingOccurrences(of: "\0", with: " "))
            }
        var below: Set<pid_t> = [process.processIdentifier]
        var grew = true
        while grew {
            grew = false
            for entry in processes where !below.contains(entry.pid) && below.contains(entry.parent) {
                below.insert(entry.pid)
                grew = true
            }
        }
        return processes.filter { below.contains($0.pid) && $0.pid != process.processIdentifier }
    }
}
