import AppStateIPC
import Glibc

/// A text file replaced whole, as prometheus-node-exporter's textfile collector needs it: the
/// collector may read at any moment, and a file it reads half-written is reported as broken.
public enum AtomicTextFile {
    /// Replaces the file at `path` with `text`. The text goes to a temporary file in the same
    /// directory, named `.NAME.XXXXXX` (the collector reads only `*.prom`), which is flushed
    /// to disk, made readable by everyone (node-exporter runs as a user of its own) and
    /// renamed over `path`: a reader sees the old content or the new, never a part, and a
    /// failure leaves the old file and no temporary one.
    /// - Parameters:
    ///   - path: The file to replace; its directory must exist.
    ///   - text: The new content.
    /// - Throws: ``CtlError`` with status 73 (`EX_CANTCREAT`), naming the file and the reason.
    public static func replace(_ path: String, with text: String) throws(CtlError) {
        try replace(path, with: Array(text.utf8))
    }

    /// Replaces the file at `path` with `bytes`, as ``replace(_:with:)-(_,String)`` does a text.
    /// - Parameters:
    ///   - path: The file to replace; its directory must exist.
    ///   - bytes: The new content.
    /// - Throws: ``CtlError`` with status 73 (`EX_CANTCREAT`), naming the file and the reason.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(CtlError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory)/.\(name).XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(path, "cannot create a file in \(directory.isEmpty ? "/" : directory)") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        let written = write(bytes, to: descriptor)
        let settled = written && fchmod(descriptor, 0o644) == 0 && fsync(descriptor) == 0
        // close reports a failed delayed write too, so its result counts.
        guard close(descriptor) == 0, settled else { throw failure(path, "cannot write \(temporary)") }
        guard rename(temporary, path) == 0 else { throw failure(path, "cannot rename \(temporary) to it") }
        renamed = true
    }

    /// Writes all of `bytes`, resuming after interruptions and partial writes.
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - descriptor: Where, e.g. `STDOUT_FILENO`.
    /// - Returns: False when the descriptor refused them.
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let count = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            remaining = remaining.dropFirst(count)
        }
        return true
    }

    private static func failure(_ path: String, _ what: String) -> CtlError {
        CtlError(message: "\(path): \(what): \(String(cString: strerror(errno)))", exitCode: ExitStatus.cannotCreate.code)
    }
}
