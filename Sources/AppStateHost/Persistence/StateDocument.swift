import AppStateCore
import StateContainers

/// Everything the daemon keeps across restarts: each tree's restorable state, by tree name.
package struct StateDocument: Equatable, Sendable {
    /// The format version this build writes and reads: 2 has a journal beside it, which a
    /// build that reads only version 1 would leave out, so such a build stops at it rather
    /// than drop the changes since the snapshot.
    static let currentVersion = 2
    /// The first version, without a journal, which this build reads too.
    static let firstVersion = 1

    var version = StateDocument.currentVersion
    var trees: [String: RestorationDocument] = [:]

    /// The document as stored: JSON with sorted keys, so that equal states give equal bytes.
    /// Written with AppStateCore's JSON codec, which ``decode(_:path:)`` reads with: a
    /// durable change writes it on the main actor.
    /// - Throws: ``StorageError`` when a value cannot be written as JSON (a number that is
    ///   not finite): the caller refuses the change rather than store a damaged state.
    func encoded() throws(StorageError) -> [UInt8] {
        var trees: [String: JSONValue] = [:]
        for (name, tree) in self.trees {
            var controllers: [String: JSONValue] = [:]
            for (path, values) in tree.controllers {
                if let key = values.first(where: { !$0.value.isFinite })?.key {
                    throw .unencodable("\(name): \(path): \(key) holds a number that is not finite")
                }
                controllers[path] = .object(values)
            }
            trees[name] = .object(["version": .number(Double(tree.version)), "controllers": .object(controllers)])
        }
        return JSONWriter.bytes(of: .object(["version": .number(Double(version)), "trees": .object(trees)]))
    }

    /// Reads a stored document with the codec that wrote it. Members it does not know are
    /// left alone, so that a later version's additions do not make a state unreadable. Each
    /// tree's restoration version is checked here too, so that a document that decodes also
    /// restores.
    /// - Throws: ``StorageError`` naming the file when it is not a state document of this
    ///   version: ``StorageError/isCorrupt`` unless a newer build wrote it.
    package static func decode(_ bytes: [UInt8], path: String) throws(StorageError) -> StateDocument {
        let value: JSONValue
        do {
            value = try JSONValue(jsonBytes: bytes)
        } catch {
            throw .corrupt(path, "\(error)")
        }
        guard let root = value.objectValue, let version = root["version"]?.intValue else {
            throw .corrupt(path, "not a state document: it has no version")
        }
        if version != firstVersion { try check(version, expected: currentVersion, of: "a state document", path: path) }
        guard let stored = root["trees"]?.objectValue else { throw .corrupt(path, "not a state document: it has no trees") }
        var trees: [String: RestorationDocument] = [:]
        for (name, tree) in stored {
            guard let members = tree.objectValue, let treeVersion = members["version"]?.intValue,
                let controllers = members["controllers"]?.objectValue
            else {
                throw .corrupt(path, "tree \(name) is not a restoration document")
            }
            try check(treeVersion, expected: RestorationDocument.currentVersion, of: "tree \(name)'s restoration document", path: path)
            var values: [String: [String: JSONValue]] = [:]
            for (controller, saved) in controllers {
                guard let saved = saved.objectValue else { throw .corrupt(path, "\(name): \(controller) is not an object") }
                values[controller] = saved
            }
            trees[name] = RestorationDocument(version: treeVersion, controllers: values)
        }
        // Read as this version: the next snapshot is written as one.
        return StateDocument(trees: trees)
    }

    /// A later version is a sound file of a newer build, which a downgrade must not drop;
    /// any other than this build's, or the first, is damage, as version 1 is the first ever written.
    private static func check(_ version: Int, expected: Int, of what: String, path: String) throws(StorageError) {
        guard version != expected else { return }
        if version > expected { throw .newer(path, what, version: version, expected: expected) }
        throw .corrupt(path, "\(what) of version \(version), expected \(expected)")
    }
}

extension JSONValue {
    /// Whether every number in the value is finite, which JSON requires.
    var isFinite: Bool {
        switch self {
        case .number(let number): number.isFinite
        case .array(let elements): elements.allSatisfy(\.isFinite)
        case .object(let members): members.values.allSatisfy(\.isFinite)
        case .null, .bool, .string: true
        }
    }
}
