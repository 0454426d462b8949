import AppStateIPC
import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A run of the real appstated under `strace`, on a state directory it makes: one client
/// sends mutations one after another, each waiting for the previous reply, and the daemon
/// is killed after the last. The trace says what reached the page cache and when each
/// reply went out; the client knows the state after each mutation.
struct PowerLossRecording {
    /// What the daemon did to its state directory, replies included.
    let operations: [FileSystemOperation]
    /// The registers before the first mutation, then after each: `states[j]` is the state
    /// once `j` mutations are acknowledged.
    let states: [RegisterValues]

    /// The system calls traced: everything that can change a directory or a file, the
    /// writes to sockets (the replies) and `close`, to follow descriptors.
    private static let tracedCalls = [
        "mkdir", "mkdirat", "open", "openat", "creat", "close", "write", "pwrite64", "writev", "pwritev", "pwritev2",
        "sendmsg", "sendto", "fsync", "fdatasync", "sync_file_range", "ftruncate", "truncate", "rename", "renameat",
        "renameat2", "unlink", "unlinkat", "link", "linkat", "symlink", "symlinkat",
    ]

    /// Records a run of `mutations` mutations.
    /// - Parameters:
    ///   - appstated: The daemon to run.
    ///   - mutations: How many mutations to send.
    ///   - directory: A directory of the run's own, for the daemon's socket, state and trace.
    /// - Throws: ``CrashTestError`` or ``TestFailure`` when the daemon or strace do not do their part.
    static func record(appstated: URL, mutations count: Int, in directory: URL) throws -> PowerLossRecording {
        // The state a daemon shows on an empty state directory: the first of the run's.
        let fresh = try TestDaemon(executable: appstated, directory: directory.appendingPathComponent("initial"))
        let initial = try observe(fresh.socketPath)
        fresh.kill9()
        let mutations = plan(count, from: initial)

        let root = directory.appendingPathComponent("recorded")
        let tracePath = directory.appendingPathComponent("trace").path
        let strace = [
            try resolveExecutable("strace"), "-f", "-ttt", "-yy", "-xx", "-s", "1048576", "-o", tracePath,
            "-e", "trace=" + tracedCalls.joined(separator: ","),
        ]
        let daemon = try TestDaemon(executable: appstated, wrapper: strace, directory: root)
        let known = socketInodes()
        let client = try VarlinkClient(path: daemon.socketPath, timeout: .seconds(30))
        guard let clientInode = socketInodes().subtracting(known).first else {
            throw CrashTestError("cannot find the client's socket in /proc/self/fd")
        }
        var states = [initial]
        for mutation in mutations {
            try mutation.send(with: client)
            var next = states[states.count - 1]
            next[mutation.register] = mutation.value
            states.append(next)
        }
        client.close()
        // On a connection of its own, whose replies are no acknowledgements.
        let shown = try observe(daemon.socketPath)
        guard shown == states.last else { throw CrashTestError("the daemon shows \(shown) after the mutations, expected \(states.last!)") }
        // The power cut: the daemon, strace's child, killed; strace then ends its log.
        guard let children = try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\(daemon.pid)/children", encoding: .utf8),
            let pid = children.split(separator: " ").first.flatMap({ pid_t($0) })
        else { throw CrashTestError("cannot find appstated under strace \(daemon.pid)") }
        kill(pid, SIGKILL)
        daemon.process.waitUntilExit()
        let log = try String(contentsOfFile: tracePath, encoding: .utf8)
        let trace = StateDirectoryTrace(stateDirectory: daemon.stateDirectory, clientInode: clientInode)
        let operations = try trace.operations(of: StraceLog.parse(log))
        let replies = operations.count { $0 == .reply }
        guard replies == mutations.count else {
            throw CrashTestError("\(replies) replies to the client in the trace, expected \(mutations.count): \(daemon.stderrText)")
        }
        return PowerLossRecording(operations: operations, states: states)
    }

    /// Mutations that each change one register to a value it did not hold just before, so
    /// that each acknowledged state differs from the one before it.
    private static func plan(_ count: Int, from initial: RegisterValues) -> [Mutation] {
        var stack = initial[.navigation].split(separator: "/").map(String.init)
        var page = Int(initial[.page]) ?? 0
        var menu = initial[.menu]
        return (0..<count).map { index in
            switch index % 4 {
            case 0:
                return .login("power-\(index)")
            case 1:
                page = (page + 1) % 3
                return .setPage(page)
            case 2:
                menu = menuItems.first { $0 != menu } ?? menu
                return .selectMenuItem(menu)
            default:
                let mutation = stack.count > 1 ? Mutation.pop(stack) : .push(destinations[0], onto: stack)
                stack = mutation.value.split(separator: "/").map(String.init)
                return mutation
            }
        }
    }

    /// The inodes of this process's sockets.
    private static func socketInodes() -> Set<UInt64> {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(
            descriptors.compactMap { descriptor in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                    target.hasPrefix("socket:[")
                else { return nil }
                return UInt64(target.dropFirst("socket:[".count).dropLast())
            })
    }
}
