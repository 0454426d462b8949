/// The page cache between the daemon and the disk, as a power cut may leave it: which of
/// the operations so far could be on the disk, after the ones an fsync made durable.
///
/// The model, after ALICE's (Pillai et al., OSDI 2014) for a journaling file system:
/// - A file's changes not yet fsynced may be lost; they reach the disk in the order they
///   were made, and the last one that reaches it may be torn: any of its blocks written and
///   the others not (past eight blocks, the first ones only), the file's new size kept or
///   not (then the unwritten blocks read as zeros).
/// - The names of a directory not yet fsynced (creations, renames, unlinks) may be lost,
///   the later ones first: the journal commits them in order, each rename whole.
/// - The state directory's own entry in its parent is lost unless the parent was fsynced
///   after `mkdir`, and everything in it with it.
/// - A file's fsync makes its content durable, not its name.
struct PersistenceModel {
    private enum Change {
        case truncate(Int)
        case write(offset: Int, bytes: [UInt8])
    }

    /// The granularity at which a write may be torn: the page the page cache writes back.
    let blockSize: Int

    private var directoryMade = false
    private var directoryDurable = false
    private var durableNames: [String: Int] = [:]
    private var pendingNames: [FileSystemOperation] = []
    private var durableContent: [Int: [UInt8]] = [:]
    private var pendingContent: [Int: [Change]] = [:]

    init(blockSize: Int) {
        self.blockSize = max(1, blockSize)
    }

    /// Takes one more operation into the page cache, or out of it to the disk for an fsync.
    mutating func apply(_ operation: FileSystemOperation) {
        switch operation {
        case .makeStateDirectory: directoryMade = true
        case .syncParent: directoryDurable = directoryDurable || directoryMade
        case .create(_, let inode):
            durableContent[inode] = []
            pendingNames.append(operation)
        case .rename, .unlink: pendingNames.append(operation)
        case .truncate(let inode, let size): pendingContent[inode, default: []].append(.truncate(size))
        case .write(let inode, let offset, let bytes): pendingContent[inode, default: []].append(.write(offset: offset, bytes: bytes))
        case .syncFile(let inode):
            durableContent[inode] = (pendingContent.removeValue(forKey: inode) ?? []).reduce(durableContent[inode] ?? [], Self.applying)
        case .syncStateDirectory:
            durableNames = pendingNames.reduce(durableNames, Self.applying)
            pendingNames = []
        case .reply: break
        }
    }

    /// Every state the disk may hold if the power went now, each once.
    func crashStates() -> [CrashState] {
        var states: [CrashState] = []
        var seen = Set<CrashState>()
        func add(_ state: CrashState) {
            if seen.insert(state).inserted { states.append(state) }
        }
        for directoryPersisted in directoryDurable ? [true] : directoryMade ? [false, true] : [false] {
            guard directoryPersisted else {
                add(CrashState(files: nil))
                continue
            }
            for kept in 0...pendingNames.count {
                let names = pendingNames.prefix(kept).reduce(durableNames, Self.applying)
                var partial: [[String: [UInt8]]] = [[:]]
                for (name, inode) in names.sorted(by: { $0.key < $1.key }) {
                    let contents = contentOptions(inode)
                    partial = partial.flatMap { files in contents.map { files.merging([name: $0]) { $1 } } }
                }
                for files in partial { add(CrashState(files: files)) }
            }
        }
        return states
    }

    /// What a file may hold: its durable content with any prefix of its pending changes
    /// applied, and the next change torn.
    private func contentOptions(_ inode: Int) -> [[UInt8]] {
        var current = durableContent[inode] ?? []
        var options = [current]
        for change in pendingContent[inode] ?? [] {
            if case .write(let offset, let bytes) = change { options += torn(current, offset: offset, bytes: bytes) }
            current = Self.applying(current, change)
            options.append(current)
        }
        var seen = Set<[UInt8]>()
        return options.filter { seen.insert($0).inserted }
    }

    /// A write cut short: each proper subset of its blocks written, the file as long as the
    /// blocks written make it or as long as the whole write would (the rest read as zeros).
    /// All or none of the blocks are the states before and after the write.
    private func torn(_ content: [UInt8], offset: Int, bytes: [UInt8]) -> [[UInt8]] {
        var blocks: [Range<Int>] = []
        var start = offset
        while start < offset + bytes.count {
            let end = min(offset + bytes.count, (start / blockSize + 1) * blockSize)
            blocks.append(start..<end)
            start = end
        }
        // Past a handful of blocks, only prefixes: the subsets would be too many to start a daemon on each.
        let subsets: [[Range<Int>]] =
            blocks.count <= 8
            ? (0..<(1 << blocks.count) - 1).map { mask in blocks.indices.filter { mask & (1 << $0) != 0 }.map { blocks[$0] } }
            : (0..<blocks.count).map { Array(blocks.prefix($0)) }
        var options: [[UInt8]] = []
        for subset in subsets {
            var written = content
            for block in subset {
                written = Self.applying(
                    written, .write(offset: block.lowerBound, bytes: Array(bytes[(block.lowerBound - offset)..<(block.upperBound - offset)])))
            }
            if !subset.isEmpty { options.append(written) }
            if offset + bytes.count > written.count { options.append(written + Array(repeating: 0, count: offset + bytes.count - written.count)) }
        }
        return options
    }

    private static func applying(_ content: [UInt8], _ change: Change) -> [UInt8] {
        switch change {
        case .truncate(let size):
            return size <= content.count ? Array(content.prefix(size)) : content + Array(repeating: 0, count: size - content.count)
        case .write(let offset, let bytes):
            var result = content
            if result.count < offset + bytes.count { result += Array(repeating: 0, count: offset + bytes.count - result.count) }
            result.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
            return result
        }
    }

    private static func applying(_ names: [String: Int], _ operation: FileSystemOperation) -> [String: Int] {
        var names = names
        switch operation {
        case .create(let name, let inode): names[name] = inode
        case .rename(let from, let to): names[to] = names.removeValue(forKey: from)
        case .unlink(let name): names[name] = nil
        default: break
        }
        return names
    }
}
