import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Starts the process as a child that cannot outlive the test run.
    ///
    /// A test that fails throws, and its daemon's `deinit` stops the daemon; but when the
    /// whole test process dies (a trap, a signal from a CI time-out) no `deinit` runs, and
    /// the daemons it started would go on running after the suite. So every child is
    /// recorded, and a handler for the fatal signals kills the recorded children before the
    /// test process goes down with its original handler. SIGPIPE is ignored, so that writing
    /// to a child that has exited is an `EPIPE` error the test reports, not the end of the
    /// test process.
    /// - Throws: What `run()` throws.
    public func runAsTestChild() throws {
        TestChildren.prepare()
        let previous = terminationHandler
        terminationHandler = { process in
            TestChildren.remove(process.processIdentifier)
            previous?(process)
        }
        try TestChildren.record {
            try run()
            return processIdentifier
        }
    }
}

/// The live children of the test process, in a fixed table a signal handler may read.
enum TestChildren {
    private static let capacity = 1024
    private nonisolated(unsafe) static let table = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
    private nonisolated(unsafe) static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
    private static let lock = NSLock()
    private static let fatalSignals = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGTERM, SIGINT, SIGHUP]

    private static let prepared: Void = {
        table.initialize(repeating: 0, count: capacity)
        signal(SIGPIPE, SIG_IGN)
        for number in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                TestChildren.killAll()
                // Put back what was there (the runtime's backtracer, or the default) and let
                // it handle the signal: a fault re-executes and faults again, a sent signal
                // is raised again.
                sigaction(number, TestChildren.previousActions + Int(number), nil)
                if number != SIGILL, number != SIGTRAP, number != SIGBUS, number != SIGFPE, number != SIGSEGV {
                    raise(number)
                }
            }
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, previousActions + Int(number))
        }
    }()

    static func prepare() { _ = prepared }

    /// Starts a child and records it; under the lock, so that a child that exits at once
    /// is removed only after it was recorded.
    static func record(_ start: () throws -> pid_t) throws {
        try lock.withLock {
            let pid = try start()
            if let slot = (0..<capacity).first(where: { table[$0] == 0 }) { table[slot] = pid }
        }
    }

    static func remove(_ pid: pid_t) {
        lock.withLock {
            if let slot = (0..<capacity).first(where: { table[$0] == pid }) { table[slot] = 0 }
        }
    }

    /// Only async-signal-safe calls: it runs in a signal handler.
    private static func killAll() {
        for slot in 0..<capacity where table[slot] > 0 {
            kill(table[slot], SIGKILL)
        }
    }
}
