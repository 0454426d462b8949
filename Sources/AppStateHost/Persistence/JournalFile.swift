#if canImport(Glibc)
    import Glibc
#endif

/// An append-only file of records beside the state file: each the change of one batch,
/// length-prefixed and checksummed, so that a record a crash tore is told from a whole one.
///
/// The file starts with a header naming its format. Each record is its payload's length and
/// CRC-32 (little-endian, four bytes each) then the payload. Reading stops at the first
/// record that is short, empty or fails its checksum: what follows is a tail a crash left
/// before its `fdatasync` returned, which no reply acknowledged.
struct JournalFile: Sendable {
    /// The records read and where the last whole one ends.
    struct Contents {
        /// Each whole record's payload, in the order written.
        var records: [[UInt8]]
        /// The length of the header and the whole records: where the next record goes.
        var validLength: Int
        /// The file's length; more than ``validLength`` when a torn tail follows.
        var fileLength: Int
    }

    /// The format version this build writes and reads.
    static let currentVersion: UInt8 = 1
    /// The header: a name, a newline, the version and a newline.
    static let header = Array("appstate-journal\n".utf8) + [currentVersion, 0x0A]

    let directory: String
    let name: String

    var path: String { "\(directory)/\(name)" }

    /// A record as the file holds it.
    /// - Parameter payload: The record's content, not empty.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 8)
        append(UInt32(payload.count), to: &bytes)
        append(CRC32.checksum(payload), to: &bytes)
        bytes += payload
        return bytes
    }

    /// The records of the file's content.
    /// - Parameter bytes: The whole file.
    /// - Throws: ``StorageError`` when the header is not this format's: corrupt, or
    ///   ``StorageError/newer(_:_:version:expected:)`` for a later version. A header cut short
    ///   or never written (zeros), as a crash while the file was made leaves it, reads as empty.
    func contents(of bytes: [UInt8]) throws(StorageError) -> Contents {
        let header = Self.header
        if bytes.prefix(header.count).allSatisfy({ $0 == 0 }) || (bytes.count < header.count && header.starts(with: bytes)) {
            return Contents(records: [], validLength: 0, fileLength: bytes.count)
        }
        guard bytes.count >= header.count else { throw .corrupt(path, "not a journal: it has no header") }
        let nameLength = header.count - 2
        guard bytes.starts(with: header.prefix(nameLength)), bytes[header.count - 1] == 0x0A else {
            throw .corrupt(path, "not a journal: its header is not appstate's")
        }
        let version = bytes[nameLength]
        guard version == Self.currentVersion else {
            if version > Self.currentVersion { throw .newer(path, "a journal", version: Int(version), expected: Int(Self.currentVersion)) }
            throw .corrupt(path, "a journal of version \(version), expected \(Self.currentVersion)")
        }
        var records: [[UInt8]] = []
        var offset = header.count
        while bytes.count - offset >= 8 {
            let length = Int(Self.uint32(bytes, at: offset))
            let checksum = Self.uint32(bytes, at: offset + 4)
            guard length > 0, length <= bytes.count - offset - 8 else { break }
            let payload = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            guard CRC32.checksum(payload) == checksum else { break }
            records.append(payload)
            offset += 8 + length
        }
        return Contents(records: records, validLength: offset, fileLength: bytes.count)
    }

    /// Writes records at `offset`, the end of the last whole record, and makes them durable
    /// with `fdatasync`. At offset 0 the file is made (or emptied) with its header, and the
    /// directory is synced so that its name is durable too. A failed write is cut off again,
    /// so that the next records follow the last whole one.
    /// - Parameters:
    ///   - records: The framed records.
    ///   - offset: Where they go.
    /// - Returns: The file's new valid length.
    /// - Throws: ``StorageError`` when a write or sync fails.
    func append(_ records: [UInt8], at offset: Int) throws(StorageError) -> Int {
        let creating = offset == 0
        let fd = open(path, O_WRONLY | O_CLOEXEC | (creating ? O_CREAT | O_TRUNC : 0), 0o600)
        guard fd >= 0 else { throw .io("open", path, errno: errno) }
        defer { close(fd) }
        let bytes = creating ? Self.header + records : records
        do throws(StorageError) {
            try writeAll(fd, bytes, at: offset)
            guard fdatasync(fd) == 0 else { throw .io("fdatasync", path, errno: errno) }
        } catch {
            _ = ftruncate(fd, off_t(offset))
            throw error
        }
        if creating { try DurableFile(directory: directory, name: name).syncDirectory() }
        return offset + bytes.count
    }

    /// Cuts the file to `length` and makes the cut durable: after a compaction, to the header,
    /// its records being in the state file; at start, to its last whole record.
    /// - Parameter length: The length to keep.
    /// - Throws: ``StorageError`` when the file cannot be cut.
    func truncate(to length: Int) throws(StorageError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw .io("open", path, errno: errno)
        }
        defer { close(fd) }
        guard ftruncate(fd, off_t(length)) == 0 else { throw .io("truncate", path, errno: errno) }
        guard fdatasync(fd) == 0 else { throw .io("fdatasync", path, errno: errno) }
    }

    private func writeAll(_ fd: Int32, _ content: [UInt8], at start: Int) throws(StorageError) {
        var offset = 0
        while offset < content.count {
            let written = content.withUnsafeBytes { pwrite(fd, $0.baseAddress! + offset, $0.count - offset, off_t(start + offset)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io("write", path, errno: errno)
            }
            offset += written
        }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
    }
}
