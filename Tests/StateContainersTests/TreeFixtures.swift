import Foundation
import StateContainers

/// Tree files in JSON text for the tree tests, and the problems they decode to.
enum TreeFixtures {
    /// A file with one tree named `t` whose root is `root`, a JSON object.
    static func file(root: String) -> String {
        #"{"trees": [{"name": "t", "root": \#(root)}]}"#
    }

    /// The problems decoding `json` reports, each as `location: message`; empty when it is valid.
    static func problems(in json: String) -> [String] {
        do {
            _ = try TreeFile.decode(json: Data(json.utf8))
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    /// The problems of a file whose single tree has `root` as its root.
    static func problems(root: String) -> [String] {
        problems(in: file(root: root))
    }

    /// Decodes a file that must be valid.
    static func decode(_ json: String) throws -> TreeFile {
        try TreeFile.decode(json: Data(json.utf8))
    }
}
