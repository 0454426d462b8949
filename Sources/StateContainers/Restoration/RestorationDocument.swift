import AppStateCore

/// A tree's restorable state as a versioned JSON document: each restorable controller's
/// coded values, keyed by its restoration path (restoration identifiers from the root joined by `/`).
public struct RestorationDocument: Codable, Hashable, Sendable {
    /// The format version this build writes and reads.
    public static let currentVersion = 1

    /// The format version of this document.
    public var version: Int
    /// Each restorable controller's saved values, by restoration path.
    public var controllers: [String: [String: JSONValue]]

    /// Creates a document.
    /// - Parameters:
    ///   - version: The format version.
    ///   - controllers: Each controller's saved values, by restoration path.
    public init(version: Int = RestorationDocument.currentVersion, controllers: [String: [String: JSONValue]] = [:]) {
        self.version = version
        self.controllers = controllers
    }
}
