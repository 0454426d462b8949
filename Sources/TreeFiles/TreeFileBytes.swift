import Glibc
import StateContainers

/// Reads a tree file's bytes with POSIX calls, at most ``TreeFileLoader/maximumFileSize``.
enum TreeFileBytes {
    /// The file's bytes.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limit: The most bytes a tree file may have.
    /// - Throws: ``TreeFileError`` "cannot read: " and `strerror`'s words ("No such file or
    ///   directory", "Is a directory"), or "larger than … bytes" after reading one byte past
    ///   the limit, never the whole of a huge file.
    static func read(path: String, limit: Int) throws(TreeFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw cannotRead(errno) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if result < 0 {
                guard errno == EINTR else { throw cannotRead(errno) }
                continue
            }
            if result == 0 { break }
            count += result
        }
        guard count <= limit else { throw TreeFileError("larger than \(limit) bytes: not a tree file") }
        bytes.removeSubrange(count...)
        return bytes
    }

    private static func cannotRead(_ error: CInt) -> TreeFileError {
        TreeFileError("cannot read: \(String(cString: strerror(error)))")
    }
}
