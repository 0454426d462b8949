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

    /// The entries that differ from an earlier document: a lookup per controller of each.
    /// - Parameter earlier: The document to compare with.
    /// - Returns: Each entry that differs by restoration path: the values of this document,
    ///   or nil where this document has none.
    public func changes(since earlier: RestorationDocument) -> [String: [String: JSONValue]?] {
        var changed: [String: [String: JSONValue]?] = [:]
        for (path, values) in controllers where earlier.controllers[path] != values { changed[path] = values }
        for path in earlier.controllers.keys where controllers[path] == nil { changed[path] = .some(nil) }
        return changed
    }
}
