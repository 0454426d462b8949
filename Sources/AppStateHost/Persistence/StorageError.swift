#if canImport(Glibc)
    import Glibc
#endif

/// A failure to read or write the state directory, naming the file and the system's reason.
package struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case io
        case corrupt
        case unencodable
    }

    private let code: Code
    /// What failed, in words: the operation, the file and the reason.
    package let description: String

    static func io(_ operation: String, _ path: String, errno number: Int32) -> StorageError {
        StorageError(code: .io, description: "\(operation) \(path): \(String(cString: strerror(number)))")
    }

    static func unencodable(_ reason: String) -> StorageError {
        StorageError(code: .unencodable, description: "the state cannot be written as JSON (\(reason))")
    }

    package static func corrupt(_ path: String, _ reason: String) -> StorageError {
        StorageError(
            code: .corrupt, description: "\(path) is not a valid state file (\(reason)); move it away to start from the tree file's initial state")
    }
}
