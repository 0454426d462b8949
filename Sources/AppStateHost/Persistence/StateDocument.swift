import AppStateCore
import StateContainers

/// Everything the daemon keeps across restarts: each tree's restorable state, by tree name.
package struct StateDocument: Equatable, Sendable {
    /// The format version this build writes and reads.
    static let currentVersion = 1

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
    /// left alone, so that a later version's additions do not make a state unreadable.
    /// - Throws: ``StorageError`` naming the file when it is not a state document of this version.
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
        guard version == currentVersion else {
            throw .corrupt(path, "version \(version), expected \(currentVersion)")
        }
        guard let stored = root["trees"]?.objectValue else { throw .corrupt(path, "not a state document: it has no trees") }
        var trees: [String: RestorationDocument] = [:]
        for (name, tree) in stored {
            guard let members = tree.objectValue, let treeVersion = members["version"]?.intValue,
                let controllers = members["controllers"]?.objectValue
            else {
                throw .corrupt(path, "tree \(name) is not a restoration document")
            }
            var values: [String: [String: JSONValue]] = [:]
            for (controller, saved) in controllers {
                guard let saved = saved.objectValue else { throw .corrupt(path, "\(name): \(controller) is not an object") }
                values[controller] = saved
            }
            trees[name] = RestorationDocument(version: treeVersion, controllers: values)
        }
        return StateDocument(version: version, trees: trees)
    }
}

extension JSONValue {
    /// Whether every number in the value is finite, which JSON requires.
    fileprivate var isFinite: Bool {
        switch self {
        case .number(let number): number.isFinite
        case .array(let elements): elements.allSatisfy(\.isFinite)
        case .object(let members): members.values.allSatisfy(\.isFinite)
        case .null, .bool, .string: true
        }
    }
}
