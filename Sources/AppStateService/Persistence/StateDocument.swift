import FoundationEssentials
import StateContainers

/// Everything the daemon keeps across restarts: each tree's restorable state, by tree name.
struct StateDocument: Codable, Equatable, Sendable {
    /// The format version this build writes and reads.
    static let currentVersion = 1

    var version = StateDocument.currentVersion
    var trees: [String: RestorationDocument] = [:]

    /// The document as stored: JSON with sorted keys, so that equal states give equal bytes.
    /// - Throws: ``StorageError`` when a value cannot be written as JSON (a number that is
    ///   not finite): the caller refuses the change rather than store a damaged state.
    func encoded() throws(StorageError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(self))
        } catch {
            throw .unencodable("\(error)")
        }
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
