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
