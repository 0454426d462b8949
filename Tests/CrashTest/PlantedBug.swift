/// A durability bug planted in a recorded trace, to show that the power-loss replay catches
/// it: the trace is rewritten into the one a daemon with that bug would produce, so the
/// daemon itself needs no flag to misbehave.
enum PlantedBug: String, CaseIterable, Sendable {
    /// `DurableFile` without the fsync of the state directory after the rename.
    case noDirectoryFsync = "no-directory-fsync"
    /// `DurableFile` renaming the temporary file over `state.json` before fsyncing it.
    case renameBeforeFsync = "rename-before-fsync"
    /// `JournalFile` appending a change without the `fdatasync` before the reply.
    case noJournalSync = "no-journal-sync"

    /// The operations with the bug planted.
    /// - Throws: ``CrashTestError`` when the trace has nothing to plant it in.
    func plant(in operations: [FileSystemOperation]) throws -> [FileSystemOperation] {
        var planted = operations
        var changes = 0
        switch self {
        case .noDirectoryFsync:
            planted.removeAll { $0 == .syncStateDirectory }
            changes = operations.count - planted.count
        case .noJournalSync:
            let journals = Set(
                operations.compactMap { operation -> Int? in
                    if case .create("state.journal", let inode) = operation { inode } else { nil }
                })
            planted.removeAll { if case .syncFile(let inode) = $0 { journals.contains(inode) } else { false } }
            changes = operations.count - planted.count
        case .renameBeforeFsync:
            for index in planted.indices {
                guard case .rename = planted[index] else { continue }
                // The fsync of the file renamed: the last one since the file was created.
                var candidate = index - 1
                while candidate >= 0, !isFileSync(planted[candidate]), !isCreation(planted[candidate]) { candidate -= 1 }
                guard candidate >= 0, isFileSync(planted[candidate]) else { continue }
                planted.insert(planted.remove(at: index), at: candidate)
                changes += 1
            }
        }
        guard changes > 0 else { throw CrashTestError("nothing to plant \(rawValue) in: the trace has no such step") }
        return planted
    }

    private func isFileSync(_ operation: FileSystemOperation) -> Bool {
        if case .syncFile = operation { true } else { false }
    }

    private func isCreation(_ operation: FileSystemOperation) -> Bool {
        if case .create = operation { true } else { false }
    }
}
