#if canImport(Glibc)
    import Glibc
#endif

/// One file replaced atomically and durably: write a temporary file, fsync it, rename it
/// over the old one, fsync the directory. A crash at any instant leaves either the old or
/// the new content, never a mix.
struct DurableFile: Sendable {
    let directory: String
    let name: String

    var path: String { "\(directory)/\(name)" }
    private var temporaryPath: String { "\(directory)/.\(name).tmp" }

    /// The file's content, or nil when it does not exist.
    func read() throws(StorageError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .io("open", path, errno: errno)
        }
        defer { close(fd) }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io("read", path, errno: errno)
            }
            if count == 0 { return content }
            content.append(contentsOf: chunk[0..<count])
        }
    }

    /// Replaces the file's content durably.
    func replace(with content: [UInt8]) throws(StorageError) {
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("create", temporaryPath, errno: errno) }
        do throws(StorageError) {
            try writeAll(fd, content)
            guard fsync(fd) == 0 else { throw .io("fsync", temporaryPath, errno: errno) }
        } catch {
            close(fd)
            unlink(temporaryPath)
            throw error
        }
        close(fd)
        guard rename(temporaryPath, path) == 0 else {
            let number = errno
            unlink(temporaryPath)
            throw .io("rename to", path, errno: number)
        }
        try syncDirectory()
    }

    /// Renames the file beside itself, to `name.<suffix>` or, when that is taken, the first
    /// free of `name.<suffix>-2`, `-3`…, and makes the rename durable. An existing file is
    /// never replaced; the daemon alone writes in its state directory, so a name found free
    /// stays free until the rename.
    /// - Parameter suffix: What to add to the name, e.g. `corrupt-20260101T120000Z`.
    /// - Returns: The new path.
    /// - Throws: ``StorageError`` when the file cannot be renamed (it is then where it was),
    ///   every name up to `-100` is taken, or the rename cannot be made durable.
    func moveAside(suffix: String) throws(StorageError) -> String {
        for attempt in 1...100 {
            let candidate = "\(path).\(suffix)" + (attempt == 1 ? "" : "-\(attempt)")
            var status = stat()
            guard lstat(candidate, &status) != 0 else { continue }
            guard errno == ENOENT else { throw .io("look up", candidate, errno: errno) }
            guard rename(path, candidate) == 0 else { throw .io("rename to", candidate, errno: errno) }
            try syncDirectory()
            return candidate
        }
        throw .io("rename", path, errno: EEXIST)
    }

    /// Removes the temporary file a crash in the middle of ``replace(with:)`` leaves: it holds
    /// nothing the file lacks, and on a full disk its space is wanted. Best effort: a read-only
    /// directory keeps it, and the next write truncates it anyway.
    func removeLeftoverTemporary() {
        unlink(temporaryPath)
    }

    func syncDirectory() throws(StorageError) {
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw .io("open", directory, errno: errno) }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw .io("fsync", directory, errno: errno) }
    }

    private func writeAll(_ fd: Int32, _ content: [UInt8]) throws(StorageError) {
        var offset = 0
        while offset < content.count {
            let written = content.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io("write", temporaryPath, errno: errno)
            }
            offset += written
        }
    }
}
