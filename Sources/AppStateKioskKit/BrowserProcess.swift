import AppStateIPC
import Glibc
import Synchronization

/// The browser, started with `--remote-debugging-pipe` and its two pipes on descriptors 3 and 4,
/// in a process group of its own so that its helpers (zygote, renderers, GPU) go with it.
public final class BrowserProcess: Sendable {
    /// The process id of the browser.
    public let pid: pid_t
    /// The DevTools connection over its pipes.
    public let connection: DevToolsConnection
    private let exit: Mutex<ExitWatch>

    private struct ExitWatch {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    /// Starts the browser.
    /// - Parameters:
    ///   - executable: A path, or a name to look up on `PATH`.
    ///   - arguments: The arguments after the executable's name; `--remote-debugging-pipe` is added.
    /// - Throws: ``KioskError`` (exit status 69) when the browser cannot be found or started.
    public init(executable: String, arguments: [String]) throws(KioskError) {
        guard let path = Self.resolve(executable) else { throw .browserNotFound(executable) }
        let toBrowser = try Self.pipe()
        let fromBrowser = try Self.pipe()
        defer {
            Glibc.close(toBrowser.read)
            Glibc.close(fromBrowser.write)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser.read, 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser.write, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaultSignals, signal) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = [path] + arguments + ["--remote-debugging-pipe"]
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var child = pid_t()
        let result = posix_spawn(&child, path, &actions, &attributes, &cArguments, environ)
        guard result == 0 else {
            Glibc.close(toBrowser.write)
            Glibc.close(fromBrowser.read)
            throw .browserNotStarted(path, reason: String(cString: strerror(result)))
        }
        pid = child
        connection = DevToolsConnection(commands: toBrowser.write, messages: fromBrowser.read)
        exit = Mutex(ExitWatch())
        DetachedThread.run { [self] in reap() }
    }

    /// The browser's exit status once it has exited: its exit code, or 128 plus the signal
    /// that ended it, as a shell reports it.
    public var exitStatus: Int32 {
        get async {
            await withCheckedContinuation { continuation in
                let status: Int32? = exit.withLock { watch in
                    if watch.status == nil { watch.waiters.append(continuation) }
                    return watch.status
                }
                if let status { continuation.resume(returning: status) }
            }
        }
    }

    /// Whether the browser has exited.
    public var hasExited: Bool { exit.withLock { $0.status != nil } }

    /// Stops the browser: the pipe closed, which it takes as the order to quit, then SIGTERM to
    /// its process group after `grace`, and SIGKILL after as long again.
    /// - Parameter grace: How long it gets at each step.
    /// - Returns: Its exit status.
    @discardableResult
    public func terminate(grace: Duration = .seconds(3)) async -> Int32 {
        connection.close()
        for signal in [SIGTERM, SIGKILL] {
            if await exited(within: grace) { break }
            Glibc.kill(-pid, signal)
        }
        return await exitStatus
    }

    /// Kills the browser and its helpers at once.
    /// - Returns: Its exit status.
    @discardableResult
    public func kill() async -> Int32 {
        connection.close()
        signalGroup(SIGKILL)
        return await exitStatus
    }

    /// Sends a signal to the browser's whole process group.
    /// - Parameter signal: The signal.
    public func signalGroup(_ signal: Int32) {
        if !hasExited { Glibc.kill(-pid, signal) }
    }

    private func exited(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if hasExited { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return hasExited
    }

    private func reap() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS are macros Swift does not import.
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let waiters = exit.withLock { watch in
            watch.status = code
            defer { watch.waiters.removeAll() }
            return watch.waiters
        }
        // The helpers outlive a browser that was killed: they go with their group.
        Glibc.kill(-pid, SIGKILL)
        for waiter in waiters { waiter.resume(returning: code) }
    }

    private static func pipe() throws(KioskError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { throw .browserNotStarted("pipe", reason: String(cString: strerror(errno))) }
        // Moved above the descriptors the child gets, close-on-exec: nothing else this process
        // starts inherits them, and the child gets its copies through dup2 alone.
        let moved = ends.map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
        for end in ends { Glibc.close(end) }
        guard moved.allSatisfy({ $0 >= 0 }) else { throw .browserNotStarted("pipe", reason: String(cString: strerror(errno))) }
        return (moved[0], moved[1])
    }

    /// The executable's path: as given when it has a `/`, else the first match on `PATH`.
    static func resolve(_ executable: String) -> String? {
        if executable.contains("/") { return access(executable, X_OK) == 0 ? executable : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(executable)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
