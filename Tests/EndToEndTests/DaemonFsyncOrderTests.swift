import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The durability promise — a mutation is on disk before its reply — checked where the crash
/// trials cannot: `kill -9` does not empty the page cache, so a daemon that never called
/// `fsync` would pass them all. Here the real `appstated` runs under `strace`, and for every
/// acknowledged mutation the system calls must come in one of two orders before the reply is
/// written to the client's socket: a snapshot (the state written to the temporary file, that
/// file fsynced, renamed over `state.json`, the state directory fsynced) or a journal append
/// (the change written to `state.journal`, fdatasynced, and the directory fsynced when the
/// journal was just made).
final class DaemonFsyncOrderTests: AppStateTestCase {
    /// Mutations that each change the restorable state, so that each needs a write of its own.
    private static func mutations(round: Int) -> [String] {
        [
            #"{"method":"io.appstate.Login","parameters":{"user":"user\#(round)"}}"#,
            #"{"method":"io.appstate.SetPage","parameters":{"path":"session/home/pages","index":1}}"#,
            #"{"method":"io.appstate.SetPage","parameters":{"path":"session/home/pages","index":2}}"#,
            #"{"method":"io.appstate.SelectMenuItem","parameters":{"path":"session/home","id":"inbox"}}"#,
            #"{"method":"io.appstate.Push","parameters":{"path":"session/home/inbox","id":"message"}}"#,
            #"{"method":"io.appstate.Pop","parameters":{"path":"session/home/inbox"}}"#,
            #"{"method":"io.appstate.SelectMenuItem","parameters":{"path":"session/home","id":"pages"}}"#,
            #"{"method":"io.appstate.Logout"}"#,
        ]
    }

    func testMutations_whenTracedWithStrace_thenEachReplyFollowsASnapshotOrAJournalAppendMadeDurable() throws {
        let daemon = try TracedDaemon()
        defer { daemon.kill() }
        let client = try ProbeConnection(path: daemon.socketPath)
        var status = stat()
        XCTAssertEqual(fstat(client.fd, &status), 0)
        var acknowledged: [String] = []
        for round in 0..<3 {
            for call in Self.mutations(round: round) {
                client.send(frame: call)
                let reply = try XCTUnwrap(client.nextFrame(timeout: 30), "no reply to \(call)")
                XCTAssertNil(reply["error"], "\(call): \(reply)")
                XCTAssertNotNil(reply["parameters"], "\(call): \(reply)")
                acknowledged.append(call)
            }
        }
        let trace = try daemon.stopAndReadTrace()
        let check = DurabilityOrder.check(
            StraceLog.parse(trace), stateDirectory: daemon.stateDirectory, clientInode: UInt64(status.st_ino)
        )
        XCTAssertEqual(check.replies, acknowledged.count, "replies to the client found in the trace\n\(trace.suffix(4000))")
        XCTAssertEqual(check.violations, [], "\n" + check.violations.joined(separator: "\n"))
        XCTAssertEqual(check.durableReplies, acknowledged.count)
    }

    // MARK: The checker itself, on written traces

    private static let directory = "/tmp/as-1/state"
    private static let temporary = "/tmp/as-1/state/.state.json.tmp"
    private static let client = "9<UNIX-STREAM:[201->200,\"/tmp/as-1/io.appstate\"]>"

    /// One durable mutation as strace prints it, with the reply to inode 200.
    private static func mutation(
        _ time: Int, fsyncFile: Bool = true, fsyncDirectory: Bool = true,
        replyFirst: Bool = false, thread: Int = 11
    ) -> [String] {
        var lines = [
            "\(thread) 1.\(time)01 openat(AT_FDCWD</>, \"\(temporary)\", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0600) = 15<\(temporary)>",
            "\(thread) 1.\(time)02 write(15<\(temporary)>, \"{\\\"trees\\\"\"..., 231) = 231",
        ]
        if fsyncFile { lines.append("\(thread) 1.\(time)03 fsync(15<\(temporary)>) = 0") }
        lines.append("\(thread) 1.\(time)04 rename(\"\(temporary)\", \"\(directory)/state.json\") = 0")
        lines.append("\(thread) 1.\(time)05 openat(AT_FDCWD</>, \"\(directory)\", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = 15<\(directory)>")
        let reply = "7 1.\(time)07 write(\(client), \"{\\\"parameters\\\":{}}\\0\", 18) = 18"
        if replyFirst { lines.append(reply) }
        if fsyncDirectory { lines.append("\(thread) 1.\(time)06 fsync(15<\(directory)>) = 0") }
        if !replyFirst { lines.append(reply) }
        return lines
    }

    /// One durable mutation appended to the journal, with the reply to inode 200.
    private static func append(_ time: Int, sync: Bool = true, made: Bool = false, fsyncDirectory: Bool = true) -> [String] {
        let journal = "\(directory)/state.journal"
        var lines = [
            "11 1.\(time)01 openat(AT_FDCWD</>, \"\(journal)\", O_WRONLY|\(made ? "O_CREAT|O_TRUNC|" : "")O_CLOEXEC, 0600) = 15<\(journal)>",
            "11 1.\(time)02 pwrite64(15<\(journal)>, \"\\x1a\\x00\"..., 34, 120) = 34",
        ]
        if sync { lines.append("11 1.\(time)03 fdatasync(15<\(journal)>) = 0") }
        if made && fsyncDirectory {
            lines.append("11 1.\(time)04 openat(AT_FDCWD</>, \"\(directory)\", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = 16<\(directory)>")
            lines.append("11 1.\(time)05 fsync(16<\(directory)>) = 0")
        }
        lines.append("7 1.\(time)07 write(\(client), \"{\\\"parameters\\\":{}}\\0\", 18) = 18")
        return lines
    }

    func testCheck_whenRepliesFollowJournalAppends_thenOnlyThoseNotMadeDurableAreViolations() {
        let durable = check(Self.mutation(1) + Self.append(2, made: true) + Self.append(3))
        XCTAssertEqual(durable.violations, [])
        XCTAssertEqual(durable.durableReplies, 3)
        let noSync = check(Self.mutation(1) + Self.append(2, sync: false))
        XCTAssertEqual(noSync.durableReplies, 1)
        XCTAssertTrue(noSync.violations.first?.contains("no fdatasync of the journal") ?? false, "\(noSync.violations)")
        let madeUnsynced = check(Self.append(1, made: true, fsyncDirectory: false))
        XCTAssertEqual(madeUnsynced.durableReplies, 0)
        XCTAssertTrue(madeUnsynced.violations.first?.contains("not fsynced before the reply") ?? false, "\(madeUnsynced.violations)")
    }

    private func check(_ lines: [String]) -> DurabilityOrder.Result {
        DurabilityOrder.check(StraceLog.parse(lines.joined(separator: "\n")), stateDirectory: Self.directory, clientInode: 200)
    }

    func testCheck_whenEveryReplyFollowsTheWholeSequence_thenNoViolation() {
        let result = check(Self.mutation(1) + ["7 1.2 write(4<anon_inode:[eventfd]>, \"\\1\", 8) = 8"] + Self.mutation(3))
        XCTAssertEqual(result.violations, [])
        XCTAssertEqual(result.replies, 2)
        XCTAssertEqual(result.durableReplies, 2)
    }

    func testCheck_whenAFsyncIsMissing_thenThatReplyIsAViolation() {
        let noFileSync = check(Self.mutation(1) + Self.mutation(2, fsyncFile: false))
        XCTAssertEqual(noFileSync.durableReplies, 1)
        XCTAssertEqual(noFileSync.violations.count, 1, "\(noFileSync.violations)")
        XCTAssertTrue(noFileSync.violations.first?.contains("fsync of the temporary file") ?? false, "\(noFileSync.violations)")
        let noDirectorySync = check(Self.mutation(1, fsyncDirectory: false) + Self.mutation(2))
        XCTAssertEqual(noDirectorySync.violations.count, 1, "\(noDirectorySync.violations)")
        XCTAssertTrue(noDirectorySync.violations.first?.contains("fsync of the directory") ?? false, "\(noDirectorySync.violations)")
        let neither = check(Self.mutation(1, fsyncFile: false, fsyncDirectory: false))
        XCTAssertEqual(neither.durableReplies, 0)
        XCTAssertEqual(neither.violations.count, 1)
    }

    func testCheck_whenReplyIsWrittenBeforeTheDirectoryFsync_thenViolation() {
        let result = check(Self.mutation(1, replyFirst: true))
        XCTAssertEqual(result.replies, 1)
        XCTAssertEqual(result.violations.count, 1, "\(result.violations)")
    }

    func testCheck_whenOneWriteServesTwoReplies_thenTheSecondIsAViolation() throws {
        // A reply must be preceded by a write of its own, after the previous reply.
        let first = Self.mutation(1)
        let reply = try XCTUnwrap(first.last)
        let result = check(first + [reply.replacingOccurrences(of: "1.107", with: "1.108")])
        XCTAssertEqual(result.replies, 2)
        XCTAssertEqual(result.violations.count, 1, "\(result.violations)")
    }

    func testParse_whenCallsAreInterruptedByOtherThreads_thenEachEndsWhereItResumes() {
        let lines = [
            "11 1.001 fsync(15<\(Self.temporary)> <unfinished ...>",
            "7 1.002 write(\(Self.client), \"{}\\0\", 3) = 3",
            "11 1.003 <... fsync resumed>) = 0",
            "12 1.004 --- SIGTERM {si_signo=SIGTERM} ---",
            "12 1.005 +++ exited with 0 +++",
        ]
        let calls = StraceLog.parse(lines.joined(separator: "\n"))
        XCTAssertEqual(calls.map(\.name), ["write", "fsync"])
        XCTAssertEqual(calls.last?.descriptor, Self.temporary)
        XCTAssertEqual(calls.last?.result, 0)
        XCTAssertEqual(calls.first?.descriptor, "UNIX-STREAM:[201->200,\"/tmp/as-1/io.appstate\"]")
    }

    func testParse_whenStringsAreHexEscaped_thenPathsAndBytesAreDecoded() throws {
        // What `strace -xx` prints: every byte of every string, and of the paths of -yy, as \xHH.
        func hex(_ text: String) -> String { text.utf8.map { String(format: "\\x%02x", $0) }.joined() }
        let lines = [
            "11 1.001 renameat2(AT_FDCWD<\(hex("/tmp"))>, \"\(hex("a/.state.json.tmp"))\", AT_FDCWD<\(hex("/tmp"))>, \"\(hex("/s/state.json"))\", 0) = 0",
            "11 1.002 write(15<\(hex(Self.temporary))>, \"\(hex("{\"a\",\n"))\\x00\", 7) = 7",
        ]
        let calls = StraceLog.parse(lines.joined(separator: "\n"))
        XCTAssertEqual(calls.count, 2)
        let rename = try XCTUnwrap(calls.first)
        XCTAssertEqual(rename.path(quoted: 0), "/tmp/a/.state.json.tmp")
        XCTAssertEqual(rename.path(quoted: 1), "/s/state.json")
        let write = try XCTUnwrap(calls.last)
        XCTAssertEqual(write.descriptor, Self.temporary)
        XCTAssertEqual(write.quotedBytes, [Array("{\"a\",\n".utf8) + [0]])
        XCTAssertEqual(write.argumentList.count, 3)
    }
}

/// The order `DurableFile` promises, checked on a trace for every reply to one client.
enum DurabilityOrder {
    struct Result {
        /// Successful writes to the client's socket.
        var replies = 0
        /// Replies preceded, since the previous reply, by the whole sequence.
        var durableReplies = 0
        /// What is wrong, reply by reply.
        var violations: [String] = []
    }

    private static let writes: Set<String> = ["write", "writev", "pwrite64", "sendmsg", "sendto"]
    private static let syncs: Set<String> = ["fsync", "fdatasync"]
    private static let renames: Set<String> = ["rename", "renameat", "renameat2"]

    /// For each successful write to the socket whose peer is `clientInode`, looks at the calls
    /// since the previous one and requires either of two sequences. A snapshot: a write to the
    /// temporary file, its fsync (no write to it after), the rename of the temporary file to
    /// `state.json`, and an fsync of the state directory. Or a journal append: a write to
    /// `state.journal`, its fdatasync (no write to it after) and, when the journal was made
    /// since, an fsync of the state directory after it.
    static func check(_ calls: [TracedCall], stateDirectory: String, clientInode: UInt64) -> Result {
        var result = Result()
        var windowStart = 0
        for (index, call) in calls.enumerated() where call.isWrite(toPeer: clientInode) {
            result.replies += 1
            let window = calls[windowStart..<index]
            windowStart = index + 1
            let reply = "reply \(result.replies) (\(call.arguments.prefix(120)))"
            let journal = stateDirectory + "/state.journal"
            let appended = window.contains { writes.contains($0.name) && $0.descriptor == journal }
            let problem =
                appended
                ? journalProblem(window, journal: journal, stateDirectory: stateDirectory) : snapshotProblem(window, stateDirectory: stateDirectory)
            guard let problem else {
                result.durableReplies += 1
                continue
            }
            result.violations.append("\(reply): \(problem)")
        }
        return result
    }

    private static func snapshotProblem(_ window: ArraySlice<TracedCall>, stateDirectory: String) -> String? {
        let temporary = stateDirectory + "/.state.json.tmp"
        let state = stateDirectory + "/state.json"
        guard let rename = window.lastIndex(where: { renames.contains($0.name) && $0.result == 0 && $0.quotedArguments == [temporary, state] })
        else { return "no rename of \(temporary) to state.json nor append to the journal since the previous reply" }
        guard window[rename...].contains(where: { syncs.contains($0.name) && $0.result == 0 && $0.descriptor == stateDirectory }) else {
            return "no fsync of the directory \(stateDirectory) between the rename and the reply"
        }
        guard let sync = window[..<rename].lastIndex(where: { syncs.contains($0.name) && $0.result == 0 && $0.descriptor == temporary }) else {
            return "no fsync of the temporary file before the rename"
        }
        guard !window[sync..<rename].contains(where: { writes.contains($0.name) && $0.descriptor == temporary }) else {
            return "the temporary file was written after its fsync"
        }
        guard window[..<sync].contains(where: { writes.contains($0.name) && ($0.result ?? 0) > 0 && $0.descriptor == temporary }) else {
            return "no write of the temporary file before its fsync"
        }
        return nil
    }

    private static func journalProblem(_ window: ArraySlice<TracedCall>, journal: String, stateDirectory: String) -> String? {
        guard let sync = window.lastIndex(where: { syncs.contains($0.name) && $0.result == 0 && $0.descriptor == journal }) else {
            return "no fdatasync of the journal after its append"
        }
        guard !window[sync...].contains(where: { writes.contains($0.name) && $0.descriptor == journal }) else {
            return "the journal was written after its fdatasync"
        }
        let made = window.contains { $0.name == "openat" && $0.path(quoted: 0) == journal && $0.arguments.contains("O_CREAT") }
        guard !made || window[sync...].contains(where: { syncs.contains($0.name) && $0.result == 0 && $0.descriptor == stateDirectory }) else {
            return "the journal was made and the directory \(stateDirectory) not fsynced before the reply"
        }
        return nil
    }
}

/// `appstated` started under `strace -f`, which stays its parent and writes the log when the
/// daemon ends.
private final class TracedDaemon {
    let directory: URL
    let socketPath: String
    let stateDirectory: String
    private let tracePath: String
    private let notify: NotifySocket
    private let strace = Process()
    private let straceErrors: URL

    init(file: StaticString = #filePath, line: UInt = #line) throws {
        guard let executable = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            XCTFail("strace is missing: run scripts/install-deps --test (it installs Debian's strace)", file: file, line: line)
            throw POSIXError(.ENOENT)
        }
        directory = try DaemonProcess.makeTemporaryDirectory()
        socketPath = directory.appendingPathComponent("io.appstate").path
        stateDirectory = directory.appendingPathComponent("state").path
        tracePath = directory.appendingPathComponent("trace").path
        notify = try NotifySocket(directory: directory.appendingPathComponent("n", isDirectory: true).creatingDirectory())
        straceErrors = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: straceErrors.path, contents: nil)
        var environment = ProcessInfo.processInfo.environment
        for key in ["JOURNAL_STREAM", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY"] {
            environment.removeValue(forKey: key)
        }
        environment["NOTIFY_SOCKET"] = notify.path
        // Under `make sanitize`: LeakSanitizer stops the threads with ptrace at exit, which it
        // cannot do under strace; this daemon's leak check is left to the other tests.
        if let options = environment["ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = options + ":detect_leaks=0" }
        strace.executableURL = URL(fileURLWithPath: executable)
        strace.arguments = [
            "-f", "-ttt", "-yy", "-s", "64", "-o", tracePath,
            "-e", "trace=openat,write,writev,pwrite64,sendmsg,sendto,fsync,fdatasync,rename,renameat,renameat2",
            "--", Products.appstated.path, "--socket", socketPath, "--state-dir", stateDirectory,
        ]
        strace.environment = environment
        strace.standardError = try FileHandle(forWritingTo: straceErrors)
        strace.standardOutput = FileHandle.nullDevice
        try strace.run()
        // READY=1, unless strace gives up first (no ptrace in this container, for example).
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if notify.waitFor("READY=1", timeout: 0.5) != nil { return }
            if !strace.isRunning { break }
        }
        kill()
        XCTFail(
            """
            appstated did not become ready under strace, so the fsync order cannot be checked. \
            strace must be able to trace its child (ptrace; a container may forbid it with seccomp \
            or without CAP_SYS_PTRACE, or kernel.yama.ptrace_scope=3). strace and the daemon said:
            \(stderrText)
            """, file: file, line: line)
        throw POSIXError(.EPERM)
    }

    var stderrText: String {
        (try? String(contentsOf: straceErrors, encoding: .utf8)) ?? ""
    }

    /// The daemon's pid: strace's child.
    private var daemonPID: pid_t? {
        let pid = strace.processIdentifier
        let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// Stops the daemon with SIGTERM, waits for strace to finish its log and returns it.
    func stopAndReadTrace(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard let pid = daemonPID else {
            XCTFail("cannot find appstated under strace \(strace.processIdentifier): \(stderrText)", file: file, line: line)
            throw POSIXError(.ESRCH)
        }
        Glibc.kill(pid, SIGTERM)
        if !Reliability.wait(timeout: 30, { !strace.isRunning }) {
            kill()
            XCTFail("appstated did not stop under strace within 30 s", file: file, line: line)
        }
        strace.waitUntilExit()
        XCTAssertEqual(strace.terminationStatus, 0, "strace, which exits with the daemon's status: \(stderrText)", file: file, line: line)
        return try String(contentsOfFile: tracePath, encoding: .utf8)
    }

    /// Ends the daemon and strace at once.
    func kill() {
        if strace.isRunning {
            if let pid = daemonPID { Glibc.kill(pid, SIGKILL) }
            Glibc.kill(strace.processIdentifier, SIGKILL)
            strace.waitUntilExit()
        }
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }
}
