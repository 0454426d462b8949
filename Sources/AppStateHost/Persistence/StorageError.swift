#if canImport(Glibc)
    import Glibc
#endif

/// A failure to read or write the state directory, naming the file and the system's reason.
package struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case io
        case corrupt
        case newer
        case unencodable
    }

    private let code: Code
    /// What failed, in words: the operation, the file and the reason.
    package let description: String

    /// Whether the file was read but holds no state document this build or an earlier one
    /// could have written (garbage, an empty or truncated file): what the daemon sets aside at
    /// start. A file that could not be read, or that a newer build wrote, is not.
    package var isCorrupt: Bool { code == .corrupt }

    static func io(_ operation: String, _ path: String, errno number: Int32) -> StorageError {
        StorageError(code: .io, description: "\(operation) \(path): \(String(cString: strerror(number)))")
    }

    static func unencodable(_ reason: String) -> StorageError {
        StorageError(code: .unencodable, description: "the state cannot be written as JSON (\(reason))")
    }

    package static func corrupt(_ path: String, _ reason: String) -> StorageError {
        StorageError(code: .corrupt, description: "\(path) is not a valid state file (\(reason))")
    }

    /// A state document of a later format, which a downgrade must not quietly drop.
    static func newer(_ path: String, _ what: String, version: Int, expected: Int) -> StorageError {
        StorageError(
            code: .newer,
            description:
                "\(path) holds \(what) of version \(version), newer than this appstated reads (\(expected)); run the appstated that wrote it, or move the file away to start from the tree file's initial state"
        )
    }
}
