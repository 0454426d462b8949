import NIOConcurrencyHelpers
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's restorable state on disk, with group commit: a commit completes only once
/// the state it was given (or a later one) is durable, and commits that arrive while a
/// write is in progress share the next single write and `fdatasync`.
///
/// The state is a snapshot, `state.json`, and a journal beside it, `state.journal`, of the
/// changes made since: a commit appends its change, so that a write costs what changed, not
/// the whole state. When the journal outgrows the snapshot, the snapshot is written again
/// (temporary file, fsync, rename, fsync of the directory) and the journal emptied, after
/// the commits of that write were told. The first write into a directory without a snapshot
/// writes one.
///
/// Commits are taken in the order of the calls: their changes are appended in that order,
/// so the journal always ends at the last state committed. (The caller commits from the main
/// actor, one state after another.)
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
        package let durableState: StateDocument?

        package var description: String { reason.description }
    }

    /// A file moved aside at start: where it went, and what was wrong with it.
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
        /// The framed records of the commits waiting, in the order committed, by generation.
        var pendingRecords: [(generation: Int, bytes: [UInt8])] = []
        /// The whole state after the last commit waiting.
        var pendingDocument: StateDocument?
        var waiters: [Waiter] = []
        var isWriting = false
        /// Commits of this generation or older are refused: their state holds a refused change.
        var refusedThrough = Int.min
        var lastFailure: StorageError?
        var durableState: StateDocument?
        /// The snapshot's length; nil until one is known to be on disk, so that the next write
        /// writes one.
        var snapshotLength: Int?
        /// Where the journal's next record goes; 0 when the journal is to be made.
        var journalLength = 0
        /// The journal's length past which a compaction is next tried: the snapshot's, so that
        /// a start never replays more than it reads in the snapshot.
        var compactionThreshold = 0
        var writes = 0
        var inFlight = 0
    }

    private let file: DurableFile
    private let journal: JournalFile
    private let threadPool: @Sendable () -> NIOThreadPool
    private let metrics: DaemonMetrics
    /// A pthread mutex (NIOLockedValueBox) rather than `Synchronization.Mutex`, whose
    /// futex-based lock ThreadSanitizer cannot see on Linux.
    private let state = NIOLockedValueBox(State())

    /// Creates a store for `state.json` and `state.journal` in an existing directory.
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
        self.journal = JournalFile(directory: directory, name: "state.journal")
        self.threadPool = threadPool
        self.metrics = metrics
    }

    /// The path of the state file.
    package var path: String { file.path }
    /// The path of the journal.
    package var journalPath: String { journal.path }

    /// How many times the store wrote, for statistics and tests of group commit.
    package var writes: Int { state.withLockedValue { $0.writes } }
    /// Commits whose state the write in progress is storing, for tests of group commit.
    var inFlight: Int { state.withLockedValue { $0.inFlight } }
    /// Commits waiting for the next write, for tests of group commit.
    var waiting: Int { state.withLockedValue { $0.waiters.count } }

    /// The saved state as a snapshot of it would hold it, without changing a file: for tests
    /// and tools that look at what is on disk.
    /// - Returns: The encoded document; nil when neither the snapshot nor a record exists.
    /// - Throws: ``StorageError`` when a file cannot be read or holds no state.
    package func load() throws(StorageError) -> [UInt8]? {
        let snapshot = try file.read()
        var document = try snapshot.map { bytes throws(StorageError) in try StateDocument.decode(bytes, path: file.path) }
        if let bytes = try DurableFile(directory: journal.directory, name: journal.name).read() {
            document = try replay(try journal.contents(of: bytes), onto: document)
        }
        return try document?.encoded()
    }

    /// The saved state, read at start: the snapshot with the journal's records applied in
    /// order. A journal's torn tail (a record cut short or failing its checksum, which only a
    /// crash before its `fdatasync` returned leaves) is cut off. A file that holds no state
    /// (garbage, an empty or truncated snapshot, a journal without its header or with a whole
    /// record that is no change) is moved aside to `<name>.corrupt-<UTC time>`, never deleted
    /// nor left for the next write to replace: a damaged snapshot with its journal, whose
    /// records follow it; a damaged journal alone, the records before the damage kept and
    /// written into a new snapshot at once. A damaged file must not keep the daemon from
    /// starting. A temporary file a crash left is removed.
    /// - Parameter now: The time the moved file is named after, in seconds since 1970.
    /// - Returns: The document, nil when there is none; the files moved aside.
    /// - Throws: ``StorageError`` when a file cannot be read (permissions, I/O errors, a
    ///   directory in its place), when a newer build wrote it, or when it is damaged and
    ///   cannot be moved (a read-only directory): each may be passing or sound, so an operator
    ///   must see it rather than a reset.
    package func loadDocument(now: Int = time(nil)) throws(StorageError) -> (document: StateDocument?, setAside: [SetAside]) {
        file.removeLeftoverTemporary()
        let suffix = "corrupt-\(Self.timestamp(now))"
        var setAside: [SetAside] = []
        var document: StateDocument?
        let snapshot = try file.read()
        if let snapshot {
            do throws(StorageError) {
                document = try StateDocument.decode(snapshot, path: file.path)
            } catch let error where error.isCorrupt {
                setAside.append(SetAside(path: try file.moveAside(suffix: suffix), problem: error))
            }
        }
        let journalFile = DurableFile(directory: journal.directory, name: journal.name)
        var journalLength = 0
        var tornTailKept = false
        if let bytes = try journalFile.read() {
            if !setAside.isEmpty {
                // Its records are changes of the snapshot just set aside: kept beside it.
                let problem = StorageError.corrupt(journal.path, "it follows the damaged \(file.path)")
                setAside.append(SetAside(path: try journalFile.moveAside(suffix: suffix), problem: problem))
            } else {
                do throws(StorageError) {
                    let contents = try journal.contents(of: bytes)
                    document = try replay(contents, onto: document)
                    journalLength = contents.validLength
                    if contents.validLength < contents.fileLength {
                        // On a read-only directory the tail stays: the next write, once there is
                        // one, writes the snapshot and empties the journal.
                        do throws(StorageError) { try journal.truncate(to: contents.validLength) } catch { tornTailKept = true }
                    }
                } catch let error where error.isCorrupt {
                    setAside.append(SetAside(path: try journalFile.moveAside(suffix: suffix), problem: error))
                    // What the journal held before the damage is read again from no file:
                    // the records that decoded are kept in a snapshot now.
                    if let contents = try? journal.contents(of: bytes) { document = try replay(contents, onto: document, untilDamage: true) }
                    if let document { try file.replace(with: try document.encoded()) }
                }
            }
        }
        state.withLockedValue { state in
            state.durableState = document
            state.snapshotLength = setAside.isEmpty && !tornTailKept ? snapshot?.count : nil
            state.journalLength = journalLength
            state.compactionThreshold = state.snapshotLength ?? 0
        }
        return (document, setAside)
    }

    /// The snapshot with the journal's records applied in order.
    /// - Parameters:
    ///   - contents: The journal's records.
    ///   - document: The snapshot, nil when there is none.
    ///   - untilDamage: Whether to stop at the first record that is no change rather than throw.
    /// - Returns: The state, nil when there is neither a snapshot nor a record.
    /// - Throws: ``StorageError/isCorrupt`` for a record that is no change.
    private func replay(_ contents: JournalFile.Contents, onto document: StateDocument?, untilDamage: Bool = false) throws(StorageError)
        -> StateDocument?
    {
        guard !contents.records.isEmpty else { return document }
        var replayed = document ?? StateDocument()
        for record in contents.records {
            do throws(StorageError) {
                try StateChange.decode(record, path: journal.path).apply(to: &replayed)
            } catch {
                if untilDamage { break }
                throw error
            }
        }
        return replayed
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

    /// Makes a change durable, then calls `completion` (on a thread of the pool, or at once).
    /// - Parameters:
    ///   - record: The change as ``StateChange/encoded()`` wrote it; nil when the batch changed
    ///     nothing, which completes once the writes under way, which its reply may describe,
    ///     are durable.
    ///   - document: The whole state after the change: what a snapshot holds and what a
    ///     refused commit rolls back to once durable.
    ///   - generation: The generation of the trees the change was taken from; the caller
    ///     starts a newer one each time it rolls back after a ``CommitFailure``.
    ///   - completion: Told once the change, and every change committed before it, is on
    ///     disk; or of the ``CommitFailure`` when the write failed, or an earlier write of this
    ///     generation did (what was durable before stays so).
    package func commit(_ record: [UInt8]?, document: StateDocument, generation: Int = 0, then completion: @escaping Completion) {
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
            // Nothing to write and nothing under way that its reply could describe.
            if record == nil, !state.isWriting, state.pendingDocument == nil, state.snapshotLength != nil { return .done }
            if let record { state.pendingRecords.append((generation, JournalFile.frame(record))) }
            state.pendingDocument = document
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

    /// Makes a change durable and returns once it, and every change committed before it, is on disk.
    /// - Parameters:
    ///   - record: The change as ``StateChange/encoded()`` wrote it; nil when nothing changed.
    ///   - document: The whole state after the change.
    ///   - generation: The generation of the trees the change was taken from.
    /// - Throws: ``CommitFailure`` as ``commit(_:document:generation:then:)`` reports it.
    package func commit(_ record: [UInt8]?, document: StateDocument, generation: Int = 0) async throws(CommitFailure) {
        let result = await withCheckedContinuation { continuation in
            commit(record, document: document, generation: generation) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// What one write stores.
    private struct Write {
        var records: [UInt8]
        var document: StateDocument
        var batch: [Waiter]
        /// Where the records go; nil writes a snapshot of `document` instead.
        var journalOffset: Int?
    }

    /// Writes the pending changes for every commit waiting, on the pool.
    private func writeNext() {
        let taken: Write? = state.withLockedValue { state in
            guard let document = state.pendingDocument else {
                state.isWriting = false
                return nil
            }
            defer {
                state.pendingRecords = []
                state.pendingDocument = nil
                state.waiters = []
            }
            state.inFlight = state.waiters.count
            return Write(
                records: state.pendingRecords.flatMap(\.bytes), document: document, batch: state.waiters,
                journalOffset: state.snapshotLength == nil ? nil : state.journalLength)
        }
        guard let taken else { return }
        metrics.recordWrite(commits: taken.batch.count)
        threadPool().submit { work in
            let result: Result<Write, StorageError>
            if work == .active {
                do {
                    result = .success(try self.store(taken))
                } catch {
                    result = .failure(error as? StorageError ?? .io("write", self.file.path, errno: EIO))
                }
            } else {
                result = .failure(.io("write", self.file.path, errno: ECANCELED))
            }
            self.finish(taken, result)
            if case .success = result { self.compactIfDue() }
            self.writeNext()
        }
    }

    /// Appends the records, or writes the snapshot when there is none to append to.
    /// - Returns: The write, with where the journal now ends.
    private func store(_ write: Write) throws(StorageError) -> Write {
        var done = write
        if let offset = write.journalOffset {
            guard !write.records.isEmpty else { return done }
            done.journalOffset = try journal.append(write.records, at: offset)
            return done
        }
        done.journalOffset = try writeSnapshot(of: write.document)
        return done
    }

    /// Writes the snapshot, then empties the journal, whose records it holds.
    /// - Returns: Where the journal's next record goes.
    private func writeSnapshot(of document: StateDocument) throws(StorageError) -> Int {
        let bytes = try document.encoded()
        try file.replace(with: bytes)
        try journal.truncate(to: 0)
        state.withLockedValue { state in
            state.snapshotLength = bytes.count
            state.compactionThreshold = bytes.count
        }
        return 0
    }

    /// Compacts once the journal outgrew the snapshot, between writes, the commits of the last
    /// one told already. A failed compaction loses nothing (the journal still holds every
    /// change) and is tried again once the journal has doubled.
    private func compactIfDue() {
        let document: StateDocument? = state.withLockedValue { state in
            state.journalLength > state.compactionThreshold ? state.durableState : nil
        }
        guard let document else { return }
        do {
            let offset = try writeSnapshot(of: document)
            state.withLockedValue { $0.journalLength = offset }
        } catch {
            state.withLockedValue { $0.compactionThreshold = 2 * $0.journalLength }
        }
    }

    /// Tells the commits of one write how it went.
    private func finish(_ write: Write, _ result: Result<Write, StorageError>) {
        let told: (waiters: [Waiter], failure: CommitFailure?) = state.withLockedValue { state in
            state.inFlight = 0
            switch result {
            case .success(let done):
                state.writes += 1
                state.durableState = write.document
                state.journalLength = done.journalOffset ?? state.journalLength
                return (write.batch, nil)
            case .failure(let reason):
                state.lastFailure = reason
                state.refusedThrough = max(state.refusedThrough, write.batch.map(\.generation).max() ?? state.refusedThrough)
                // Commits that queued up meanwhile were taken from the same trees, after the
                // refused change: refuse them too rather than write it for them.
                let refused = state.waiters.filter { $0.generation <= state.refusedThrough }
                state.waiters.removeAll { $0.generation <= state.refusedThrough }
                state.pendingRecords.removeAll { $0.generation <= state.refusedThrough }
                if state.waiters.isEmpty { state.pendingDocument = nil }
                // The failed append may have left part of its records, which the next write must
                // not follow: it writes the snapshot, emptying the journal.
                state.snapshotLength = nil
                return (write.batch + refused, CommitFailure(reason: reason, durableState: state.durableState))
            }
        }
        for waiter in told.waiters {
            waiter.completion(told.failure.map { .failure($0) } ?? .success(()))
        }
    }
}
