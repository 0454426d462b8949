import Foundation
import StateContainers

extension Controller {
    /// The tree's restorable state as the daemon keeps it: encoded to JSON and decoded back,
    /// so that a restoration test also covers the document's round trip.
    func restorableTreeSavedThroughJSON() throws -> RestorationDocument {
        try JSONDecoder().decode(RestorationDocument.self, from: JSONEncoder().encode(encodeRestorableTree()))
    }
}
