import NIOConcurrencyHelpers
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's restorable state on disk, with group commit: a commit completes only once
/// the state it was given (or a later one) is durable, and commits that arrive while a
/// write is in progress share the next single write and fsync.
///
/// Commits are taken in the order of the calls: a state handed over later replaces an earlier
/// one that waits, and is never overtaken by it, so the file always ends at the last state
/// committed. (The caller commits from the main actor, one state after another.)
///
/// Each commit names the *generation* of the in-memory trees it was taken from. When a write
/// fails, every state of that generation or older contains the refused change, so all of
/// them are refused, those waiting and those still to come, until the caller has rolled its
/// trees back to ``CommitFailure/durableState`` and commits with a newer generation. A
/// refused change therefore never reaches the disk later as part of a state written for
/// someone else.
package final class StateStore: Sendable {
    /// A refused commit: why, and the last state that is durable, to roll back to.
    package struct CommitFailure: Error, CustomStringConvertible {
        /// The write that failed.
        package let reason: StorageError
        /// The last state this store made durable; nil when it wrote none yet (the state
        /// loaded at start, or the initial one, is then the durable one).
        package let durableState: [UInt8]?

        package var description: String { reason.description }
    }

    /// A state file moved aside at start: where it went, and what was wrong with it.
    package struct SetAside: Equatable, Sendable {
        /// The file's new path, beside the state file.
        package let path: String
        /// Why it was moved.
        package let problem: StorageError
    }

    /// What a commit is told when it completes.
    package typealias Completion = @Sendable (Result<Void, CommitFailure>) -> Void

    private struct Waiter {
        let generation: Int
        let completion: Completion
    }

    private struct State {
        var pending: [UInt8]?
        var waiters: [Waiter] = []
        var isWriting = false
        /// Commits of this generation or older are refused: their state holds a refused change.
        var refusedThrough = Int.min
        var lastFailure: StorageError?
        var durableState: [UInt8]?
        var writes = 0
        var inFlight = 0
    }

    private let file: DurableFile
    private let threadPool: @Sendable () -> NIOThreadPool
    private let metrics: DaemonMetrics
    /// A pthread mutex (NIOLockedValueBox) rather than `Synchronization.Mutex`, whose
    /// futex-based lock ThreadSanitizer cannot see on Linux.
    private let state = NIOLockedValueBox(State())

    /// Creates a store for `state.json` in an existing directory.
    /// - Parameters:
    ///   - directory: The state directory.
    ///   - threadPool: Where the blocking writes run, off the main actor and event loops. Taken
    ///     at the first write, not here: NIO's shared pool starts its threads when first asked
    ///     for, and a daemon that is only read never needs them.
    ///   - metrics: Where each commit's wait and each write's batch are recorded.
    package init(
        directory: String, threadPool: @autoclosure @escaping @Sendable () -> NIOThreadPool = .singleton,
        metrics: DaemonMetrics = DaemonMetrics()
    ) {
        self.file = DurableFile(directory: directory, name: "state.json")
        self.threadPool = threadPool
        self.metrics = metrics
    }

    /// The path of the state file.
    package var path: String { file.path }

    /// How many times the file was written, for statistics and tests of group commit.
    package var writes: Int { state.withLockedValue { $0.writes } }
    /// Commits whose state the write in progress is storing, for tests of group commit.
    var inFlight: Int { state.withLockedValue { $0.inFlight } }
    /// Commits waiting for the next write, for tests of group commit.
    var waiting: Int { state.withLockedValue { $0.waiters.count } }

    /// The last committed state, or nil when none was ever written.
    /// - Throws: ``StorageError`` when the file exists but cannot be read.
    package func load() throws(StorageError) -> [UInt8]? {
        try file.read()
    }

    /// The saved state, read at start. A file that holds no state document (garbage, an
    /// empty or truncated file) is moved aside to `state.json.corrupt-<UTC time>`, never
    /// deleted nor left for the next write to replace, and there is then no saved state: a
    /// damaged file must not keep the daemon from starting. A temporary file a crash left is
    /// removed.
    /// - Parameter now: The time the moved file is named after, in seconds since 1970.
    /// - Returns: The document, nil when there is none; the file moved aside, if one was.
    /// - Throws: ``StorageError`` when the file cannot be read (permissions, I/O errors, a
    ///   directory in its place), when a newer build wrote it, or when it is damaged and
    ///   cannot be moved (a read-only directory): each may be passing or sound, so an
    ///   operator must see it rather than a reset.
    package func loadDocument(now: Int = time(nil)) throws(StorageError) -> (document: StateDocument?, setAside: SetAside?) {
        file.removeLeftoverTemporary()
        guard let bytes = try file.read() else { return (nil, nil) }
        do throws(StorageError) {
            return (try StateDocument.decode(bytes, path: file.path), nil)
        } catch let error where error.isCorrupt {
            let path = try file.moveAside(suffix: "corrupt-\(Self.timestamp(now))")
            return (nil, SetAside(path: path, problem: error))
        }
    }

    /// A UTC time as `20260101T120000Z`: sortable, and free of characters a shell or a file
    /// system minds.
    static func timestamp(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + digits(parts.tm_mon + 1, 2) + digits(parts.tm_mday, 2) + "T"
            + digits(parts.tm_hour, 2) + digits(parts.tm_min, 2) + digits(parts.tm_sec, 2) + "Z"
    }

    /// Makes `bytes` durable, then calls `completion` (on a thread of the pool, or at once).
    /// - Parameters:
    ///   - bytes: The complete state document to store.
    ///   - generation: The generation of the trees `bytes` was taken from; the caller starts
    ///     a newer one each time it rolls back after a ``CommitFailure``.
    ///   - completion: Told once `bytes`, or a state committed after it, is on disk; or of
    ///     the ``CommitFailure`` when the write failed, or an earlier write of this
    ///     generation did (the previous file is intact then).
    package func commit(_ bytes: [UInt8], generation: Int = 0, then completion: @escaping Completion) {
        enum Next {
            case refuse(CommitFailure)
            case done
            case write
            case wait
        }
        let start = ContinuousClock.now
        let metrics = self.metrics
        let next: Next = state.withLockedValue { state in
            if generation <= state.refusedThrough, let failure = state.lastFailure {
                return .refuse(CommitFailure(reason: failure, durableState: state.durableState))
            }
            // Nothing to write when the disk already holds exactly this state and no other write
            // is under way or queued that would replace it.
            if !state.isWriting, state.pending == nil, let durable = state.durableState, durable == bytes { return .done }
            state.pending = bytes
            state.waiters.append(
                Waiter(generation: generation) { result in
                    if case .success = result { metrics.recordCommit(.now - start) }
                    completion(result)
                })
            guard !state.isWriting else { return .wait }
            state.isWriting = true
            return .write
        }
        switch next {
        case .refuse(let failure): completion(.failure(failure))
        case .done: completion(.success(()))
        case .write: writeNext()
        case .wait: break
        }
    }

    /// Makes `bytes` durable and returns once it, or a state committed after it, is on disk.
    /// - Parameters:
    ///   - bytes: The complete state document to store.
    ///   - generation: The generation of the trees `bytes` was taken from.
    /// - Throws: ``CommitFailure`` as ``commit(_:generation:then:)`` reports it.
    package func commit(_ bytes: [UInt8], generation: Int = 0) async throws(CommitFailure) {
        let result = await withCheckedContinuation { continuation in
            commit(bytes, generation: generation) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// Writes the latest pending state for every commit waiting, on the pool.
    private func writeNext() {
        let taken: (bytes: [UInt8], batch: [Waiter])? = state.withLockedValue { state in
            guard let bytes = state.pending else {
                state.isWriting = false
                return nil
            }
            state.pending = nil
            defer { state.waiters = [] }
            state.inFlight = state.waiters.count
            return (bytes, state.waiters)
        }
        guard let taken else { return }
        metrics.recordWrite(commits: taken.batch.count)
        let file = self.file
        threadPool().submit { work in
            let result: Result<Void, StorageError>
            if work == .active {
                do {
                    try file.replace(with: taken.bytes)
                    result = .success(())
                } catch {
                    result = .failure(error as? StorageError ?? .io("write", file.path, errno: EIO))
                }
            } else {
                result = .failure(.io("write", file.path, errno: ECANCELED))
            }
            self.finish(taken.bytes, for: taken.batch, result)
        }
    }

    /// Tells the commits of one write how it went, then writes what queued meanwhile.
    private func finish(_ bytes: [UInt8], for batch: [Waiter], _ result: Result<Void, StorageError>) {
        let told: (waiters: [Waiter], failure: CommitFailure?) = state.withLockedValue { state in
            state.inFlight = 0
            switch result {
            case .success:
                state.writes += 1
                state.durableState = bytes
                return (batch, nil)
            case .failure(let reason):
                state.lastFailure = reason
                state.refusedThrough = max(state.refusedThrough, batch.map(\.generation).max() ?? state.refusedThrough)
                // Commits that queued up meanwhile were taken from the same trees, after the
                // refused change: refuse them too rather than write it for them.
                let refused = state.waiters.filter { $0.generation <= state.refusedThrough }
                state.waiters.removeAll { $0.generation <= state.refusedThrough }
                if state.waiters.isEmpty { state.pending = nil }
                return (batch + refused, CommitFailure(reason: reason, durableState: state.durableState))
            }
        }
        for waiter in told.waiters {
            waiter.completion(told.failure.map { .failure($0) } ?? .success(()))
        }
        writeNext()
    }
}
