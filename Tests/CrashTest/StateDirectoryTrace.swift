import TestSupport

/// Turns the system calls of a daemon traced with `strace -f -yy -xx` into what it did to
/// its state directory, following names and descriptors to files as the kernel does.
///
/// Calls on other files are left out, except the replies to the mutating client. A call on
/// the state directory that the power-loss model does not know (a hard link, `pwritev`…)
/// stops the test rather than be ignored: the model must learn it first.
struct StateDirectoryTrace {
    private enum Target {
        case file(inode: Int, offset: Int)
        case stateDirectory
        case parent
    }

    let stateDirectory: String
    /// The socket inode of the mutating client, whose peer the daemon writes replies to.
    let clientInode: UInt64

    private var parent: String {
        String(stateDirectory[..<(stateDirectory.lastIndex(of: "/") ?? stateDirectory.startIndex)])
    }

    /// The operations, in the order the calls completed.
    /// - Throws: ``CrashTestError`` for a call the model does not know, or data strace cut short.
    func operations(of calls: [TracedCall]) throws -> [FileSystemOperation] {
        var operations: [FileSystemOperation] = []
        var names: [String: Int] = [:]
        var sizes: [Int: Int] = [:]
        var descriptors: [Int: Target] = [:]
        var nextInode = 1
        /// The name in the state directory a path stands for, if it is in it.
        func name(_ path: String?) -> String? {
            guard let path, path.hasPrefix(stateDirectory + "/") else { return nil }
            let name = String(path.dropFirst(stateDirectory.count + 1))
            return name.contains("/") ? nil : name
        }
        for call in calls {
            let number = Int(call.arguments.prefix { $0.isNumber })
            let target = number.flatMap { descriptors[$0] }
            let succeeded = (call.result ?? -1) >= 0
            switch call.name {
            case "mkdir", "mkdirat":
                guard succeeded, let path = call.path(quoted: 0) else { continue }
                if path == stateDirectory {
                    operations.append(.makeStateDirectory)
                } else if path.hasPrefix(stateDirectory + "/") {
                    throw CrashTestError("unsupported: a directory made in the state directory: \(path)")
                }
            case "open", "openat", "creat":
                guard succeeded, let descriptor = call.result, let path = call.path(quoted: 0) else { continue }
                let flags = call.name == "creat" ? "O_CREAT|O_TRUNC" : call.argumentList.first { $0.hasPrefix("O_") } ?? ""
                if path == stateDirectory {
                    descriptors[descriptor] = .stateDirectory
                } else if path == parent {
                    descriptors[descriptor] = .parent
                } else if let name = name(path) {
                    let inode: Int
                    if let existing = names[name] {
                        inode = existing
                        if flags.contains("O_TRUNC"), sizes[inode, default: 0] > 0 {
                            sizes[inode] = 0
                            operations.append(.truncate(inode: inode, size: 0))
                        }
                    } else {
                        guard flags.contains("O_CREAT") else {
                            descriptors[descriptor] = nil
                            continue
                        }
                        inode = nextInode
                        nextInode += 1
                        names[name] = inode
                        sizes[inode] = 0
                        operations.append(.create(name: name, inode: inode))
                    }
                    let offset = flags.contains("O_APPEND") ? sizes[inode, default: 0] : 0
                    descriptors[descriptor] = .file(inode: inode, offset: offset)
                } else {
                    descriptors[descriptor] = nil
                }
            case "close":
                if let number { descriptors[number] = nil }
            case "write", "pwrite64":
                if case .file(let inode, let position) = target {
                    guard succeeded, let count = call.result, count > 0 else { continue }
                    guard let bytes = call.quotedBytes.first, bytes.count >= count else {
                        throw CrashTestError("strace cut the data of \(call.name) short: raise its -s")
                    }
                    let offset = call.name == "pwrite64" ? Int(call.argumentList.last ?? "") ?? -1 : position
                    guard offset >= 0 else { throw CrashTestError("cannot read the offset of \(call.name)(\(call.arguments.prefix(80)))") }
                    operations.append(.write(inode: inode, offset: offset, bytes: Array(bytes.prefix(count))))
                    sizes[inode] = max(sizes[inode, default: 0], offset + count)
                    if call.name == "write", let number { descriptors[number] = .file(inode: inode, offset: position + count) }
                } else if call.isWrite(toPeer: clientInode) {
                    operations.append(.reply)
                }
            case "writev", "sendmsg", "sendto":
                if case .file = target { throw CrashTestError("unsupported: \(call.name) on a file of the state directory") }
                if call.isWrite(toPeer: clientInode) { operations.append(.reply) }
            case "fsync", "fdatasync":
                guard succeeded, let target else { continue }
                switch target {
                case .file(let inode, _): operations.append(.syncFile(inode: inode))
                case .stateDirectory: operations.append(.syncStateDirectory)
                case .parent: operations.append(.syncParent)
                }
            case "ftruncate":
                guard succeeded, case .file(let inode, _) = target else { continue }
                let size = Int(call.argumentList.last ?? "") ?? 0
                sizes[inode] = size
                operations.append(.truncate(inode: inode, size: size))
            case "rename", "renameat", "renameat2":
                guard succeeded else { continue }
                let from = name(call.path(quoted: 0))
                let to = name(call.path(quoted: 1))
                guard let from, let to else {
                    if from != nil || to != nil { throw CrashTestError("unsupported: a rename into or out of the state directory") }
                    continue
                }
                guard let inode = names.removeValue(forKey: from) else { throw CrashTestError("rename of unknown \(from)") }
                names[to] = inode
                operations.append(.rename(from: from, to: to))
            case "unlink", "unlinkat":
                guard succeeded, let name = name(call.path(quoted: 0)) else { continue }
                names[name] = nil
                operations.append(.unlink(name: name))
            default:
                if name(call.path(quoted: 0)) != nil || target.map({ if case .file = $0 { true } else { false } }) == true {
                    throw CrashTestError("unsupported: \(call.name) on the state directory")
                }
            }
        }
        return operations
    }
}
