#if canImport(Glibc)
    import Glibc
#endif

/// A failure to read the user or group database, which access decisions depend on.
package struct AccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, in words, with the system's reason.
    package let description: String

    /// A lookup in the password or group database failed.
    /// - Parameters:
    ///   - what: The lookup, e.g. `getpwuid_r(1000)`.
    ///   - number: The `errno` it reported.
    static func userLookupFailed(_ what: String, errno number: Int32) -> AccessError {
        AccessError(description: "\(what): \(String(cString: strerror(number)))")
    }
}
