import Foundation
import StateContainers

/// Everything the daemon keeps across restarts: each tree's restorable state, by tree name.
struct StateDocument: Codable, Equatable, Sendable {
    /// The format version this build writes and reads.
    static let currentVersion = 1

    var version = StateDocument.currentVersion
    var trees: [String: RestorationDocument] = [:]

    /// The document as stored: JSON with sorted keys, so that equal states give equal bytes.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(self))) ?? []
    }

    /// Reads a stored document.
    /// - Throws: ``StorageError`` naming the file when it is not a state document of this version.
    static func decode(_ bytes: [UInt8], path: String) throws(StorageError) -> StateDocument {
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
