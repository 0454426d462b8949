import NIOPosix

/// The daemon's restorable state on disk, with group commit: a commit returns only once
/// the state it was given (or a later one) is durable, and commits that arrive while a
/// write is in progress share the next single write and fsync.
public actor StateStore {
    private let file: DurableFile
    private let threadPool: NIOThreadPool
    private var pending: [UInt8]?
    private var waiters: [CheckedContinuation<Void, any Error>] = []
    private var isWriting = false
    /// How many times the file was written, for statistics and tests of group commit.
    public private(set) var writes = 0
    /// Commits whose state the write in progress is storing, and commits waiting for the
    /// next write: for tests of group commit.
    private(set) var inFlight = 0
    var waiting: Int { waiters.count }

    /// Creates a store for `state.json` in an existing directory.
    /// - Parameters:
    ///   - directory: The state directory.
    ///   - threadPool: Where the blocking writes run, off the main actor and event loops.
    public init(directory: String, threadPool: NIOThreadPool = .singleton) {
        self.file = DurableFile(directory: directory, name: "state.json")
        self.threadPool = threadPool
    }

    /// The path of the state file.
    public nonisolated var path: String { file.path }

    /// The last committed state, or nil when none was ever written.
    /// - Throws: ``StorageError`` when the file exists but cannot be read.
    public nonisolated func load() throws(StorageError) -> [UInt8]? {
        try file.read()
    }

    /// Makes `state` durable. Returns once it, or a state committed after it, is on disk.
    /// - Parameter state: The complete state document to store.
    /// - Throws: ``StorageError`` when the write failed; the previous file is intact then.
    public func commit(_ state: [UInt8]) async throws {
        pending = state
        try await withCheckedThrowingContinuation { continuation in
            waiters.append(continuation)
            if !isWriting {
                isWriting = true
                Task { await writeLoop() }
            }
        }
    }

    private func writeLoop() async {
        while let state = pending {
            pending = nil
            let batch = waiters
            waiters = []
            inFlight = batch.count
            let file = self.file
            do {
                try await threadPool.runIfActive { try file.replace(with: state) }
                writes += 1
                for waiter in batch { waiter.resume() }
            } catch {
                for waiter in batch { waiter.resume(throwing: error) }
            }
            inFlight = 0
        }
        isWriting = false
    }
}
