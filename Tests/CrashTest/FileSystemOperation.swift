/// What the daemon did to its state directory, as a power cut sees it: the traced system
/// calls that change what a disk may hold, with files named by inode (a name may point at
/// another file later), and the replies that acknowledged mutations.
enum FileSystemOperation: Equatable, Sendable, CustomStringConvertible {
    /// The state directory made in its parent.
    case makeStateDirectory
    /// The parent of the state directory fsynced: its entry for the state directory is durable.
    case syncParent
    /// A new, empty file linked into the state directory.
    case create(name: String, inode: Int)
    /// A file's size set (`O_TRUNC`, `ftruncate`).
    case truncate(inode: Int, size: Int)
    /// Bytes written at an offset of a file.
    case write(inode: Int, offset: Int, bytes: [UInt8])
    /// A file fsynced (or fdatasynced): its content is durable, its name is not.
    case syncFile(inode: Int)
    /// A name of the state directory replaced by another, atomically.
    case rename(from: String, to: String)
    /// A name removed from the state directory.
    case unlink(name: String)
    /// The state directory fsynced: its names are durable.
    case syncStateDirectory
    /// A reply written to the mutating client: one more mutation acknowledged.
    case reply

    var description: String {
        switch self {
        case .makeStateDirectory: "mkdir state"
        case .syncParent: "fsync parent"
        case .create(let name, let inode): "create \(name) (#\(inode))"
        case .truncate(let inode, let size): "truncate #\(inode) to \(size)"
        case .write(let inode, let offset, let bytes): "write #\(inode) \(bytes.count) bytes at \(offset)"
        case .syncFile(let inode): "fsync #\(inode)"
        case .rename(let from, let to): "rename \(from) to \(to)"
        case .unlink(let name): "unlink \(name)"
        case .syncStateDirectory: "fsync state"
        case .reply: "reply"
        }
    }
}
