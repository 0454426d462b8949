import NIOPosix

/// The daemon's restorable state on disk, with group commit: a commit returns only once
/// the state it was given (or a later one) is durable, and commits that arrive while a
/// write is in progress share the next single write and fsync.
///
/// Each commit names the *generation* of the in-memory trees it was taken from. When a write
/// fails, every state of that generation or older contains the refused change, so all of
/// them are refused, those waiting and those still to come, until the caller has rolled its
/// trees back to ``CommitFailure/durableState`` and commits with a newer generation. A
/// refused change therefore never reaches the disk later as part of a state written for
/// someone else.
package actor StateStore {
    /// A refused commit: why, and the last state that is durable, to roll back to.
    package struct CommitFailure: Error, CustomStringConvertible {
        /// The write that failed.
        package let reason: StorageError
        /// The last state this store made durable; nil when it wrote none yet (the state
        /// loaded at start, or the initial one, is then the durable one).
        package let durableState: [UInt8]?

        package var description: String { reason.description }
    }

    private let file: DurableFile
    private let threadPool: @Sendable () -> NIOThreadPool
    private let metrics: DaemonMetrics
    private var pending: [UInt8]?
    private var waiters: [(generation: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var isWriting = false
    /// Commits of this generation or older are refused: their state holds a refused change.
    private var refusedThrough = Int.min
    private var lastFailure: StorageError?
    private var durableState: [UInt8]?
    /// How many times the file was written, for statistics and tests of group commit.
    package private(set) var writes = 0
    /// Commits whose state the write in progress is storing, and commits waiting for the
    /// next write: for tests of group commit.
    private(set) var inFlight = 0
    var waiting: Int { waiters.count }

    /// Creates a store for `state.json` in an existing directory.
    /// - Parameters:
    ///   - directory: The state directory.
    ///   - threadPool: Where the blocking writes run, off the main actor and event loops. Taken
    ///     at the first write, not here: NIO's shared pool starts its threads when first asked
    ///     for, and a daemon that is only read never needs them (nor pays for them at start).
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
    package nonisolated var path: String { file.path }

    /// The last committed state, or nil when none was ever written.
    /// - Throws: ``StorageError`` when the file exists but cannot be read.
    package nonisolated func load() throws(StorageError) -> [UInt8]? {
        try file.read()
    }

    /// Makes `state` durable. Returns once it, or a state committed after it, is on disk.
    /// - Parameters:
    ///   - state: The complete state document to store.
    ///   - generation: The generation of the trees `state` was taken from; the caller starts
    ///     a newer one each time it rolls back after a ``CommitFailure``.
    /// - Throws: ``CommitFailure`` when the write failed, or an earlier write of this
    ///   generation did; the previous file is intact then.
    package func commit(_ state: [UInt8], generation: Int = 0) async throws {
        if generation <= refusedThrough, let lastFailure {
            throw CommitFailure(reason: lastFailure, durableState: durableState)
        }
        // Nothing to write when the disk already holds exactly this state and no other write
        // is under way or queued that would replace it.
        if !isWriting, pending == nil, let durableState, durableState == state { return }
        pending = state
        let start = ContinuousClock.now
        try await withCheckedThrowingContinuation { continuation in
            waiters.append((generation, continuation))
            if !isWriting {
                isWriting = true
                Task { await writeLoop() }
            }
        }
        metrics.recordCommit(.now - start)
    }

    private func writeLoop() async {
        while let state = pending {
            pending = nil
            let batch = waiters
            waiters = []
            inFlight = batch.count
            metrics.recordWrite(commits: batch.count)
            let file = self.file
            do {
                try await threadPool().runIfActive { try file.replace(with: state) }
                writes += 1
                durableState = state
                for waiter in batch { waiter.continuation.resume() }
            } catch {
                let reason = error as? StorageError ?? StorageError.io("write", file.path, errno: EIO)
                lastFailure = reason
                refusedThrough = max(refusedThrough, batch.map(\.generation).max() ?? refusedThrough)
                let failure = CommitFailure(reason: reason, durableState: durableState)
                for waiter in batch { waiter.continuation.resume(throwing: failure) }
                // Commits that queued up meanwhile were taken from the same trees, after the
                // refused change: refuse them too rather than write it for them.
                let refused = waiters.filter { $0.generation <= refusedThrough }
                waiters.removeAll { $0.generation <= refusedThrough }
                for waiter in refused { waiter.continuation.resume(throwing: failure) }
                if waiters.isEmpty { pending = nil }
            }
            inFlight = 0
        }
        isWriting = false
    }
}
