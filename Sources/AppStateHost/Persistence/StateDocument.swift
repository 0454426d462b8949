import AppStateCore
import FoundationEssentials
import StateContainers

/// Everything the daemon keeps across restarts: each tree's restorable state, by tree name.
package struct StateDocument: Codable, Equatable, Sendable {
    /// The format version this build writes and reads.
    static let currentVersion = 1

    var version = StateDocument.currentVersion
    var trees: [String: RestorationDocument] = [:]

    /// The document as stored: JSON with sorted keys, so that equal states give equal bytes.
    /// Written by `JSONWriter` rather than `JSONEncoder`, whose generic `Codable` path was
    /// three tenths of a durable change's time on the main actor; `decode` reads both.
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

    /// Reads a stored document.
    /// - Throws: ``StorageError`` naming the file when it is not a state document of this version.
    package static func decode(_ bytes: [UInt8], path: String) throws(StorageError) -> StateDocument {
        let document: StateDocument
        do {
            document = try JSONDecoder().decode(StateDocument.self, from: Data(bytes))
        } catch {
            throw .corrupt(path, "\(error)")
        }
        guard document.version == currentVersion else {
            throw .corrupt(path, "version \(document.version), expected \(currentVersion)")
        }
        return document
    }
}

private extension JSONValue {
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
