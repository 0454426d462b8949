import AppStateCore
import StateContainers

/// What a batch changed in the restorable state: each changed controller's new values, each
/// removed controller, each removed tree. Applied in order to the state it was taken from, it
/// gives the state after the batch; applied again to that later state it changes nothing, as
/// every entry says what a value *is*, not how it moved.
package struct StateChange: Equatable, Sendable {
    /// By tree, then by restoration path: the controller's values, or nil where it was removed.
    var controllers: [String: [String: [String: JSONValue]?]] = [:]
    /// The trees the document no longer holds (a reload dropped them).
    var removedTrees: Set<String> = []

    /// Whether the change changes nothing.
    package var isEmpty: Bool { controllers.isEmpty && removedTrees.isEmpty }

    /// The change from one document to another. Controllers whose values are the same
    /// storage in both (what the trees' restoration cache handed over again) compare at once,
    /// so finding a change costs a lookup per saved controller, not a walk of their values.
    /// - Parameters:
    ///   - old: The state before.
    ///   - new: The state after.
    package init(from old: StateDocument, to new: StateDocument) {
        for (name, tree) in new.trees {
            let changed = tree.changes(since: old.trees[name] ?? RestorationDocument())
            if !changed.isEmpty { controllers[name] = changed }
        }
        removedTrees = Set(old.trees.keys.filter { new.trees[$0] == nil })
    }

    init(controllers: [String: [String: [String: JSONValue]?]], removedTrees: Set<String>) {
        self.controllers = controllers
        self.removedTrees = removedTrees
    }

    /// Applies the change to a document.
    /// - Parameter document: The state the change was taken from, or a later one.
    func apply(to document: inout StateDocument) {
        for name in removedTrees { document.trees[name] = nil }
        for (name, changed) in controllers {
            var tree = document.trees[name] ?? RestorationDocument()
            for (path, values) in changed { tree.controllers[path] = values }
            document.trees[name] = tree
        }
    }

    /// The change as a journal record holds it: JSON with sorted keys, removals as null.
    /// - Throws: ``StorageError`` when a value cannot be written as JSON (a number that is
    ///   not finite): the caller refuses the change rather than store a damaged state.
    func encoded() throws(StorageError) -> [UInt8] {
        var trees: [String: JSONValue] = [:]
        for (name, changed) in controllers {
            var members: [String: JSONValue] = [:]
            for (path, values) in changed {
                guard let values else {
                    members[path] = .null
                    continue
                }
                if let key = values.first(where: { !$0.value.isFinite })?.key {
                    throw .unencodable("\(name): \(path): \(key) holds a number that is not finite")
                }
                members[path] = .object(values)
            }
            trees[name] = .object(members)
        }
        let removed = removedTrees.sorted().map { JSONValue.string($0) }
        return JSONWriter.bytes(of: .object(["trees": .object(trees), "removedTrees": .array(removed)]))
    }

    /// Reads a record written by ``encoded()``.
    /// - Parameters:
    ///   - bytes: The record's payload.
    ///   - path: The journal's path, for the error.
    /// - Throws: ``StorageError/isCorrupt`` when the payload is not such a record.
    static func decode(_ bytes: [UInt8], path: String) throws(StorageError) -> StateChange {
        let value: JSONValue
        do {
            value = try JSONValue(jsonBytes: bytes)
        } catch {
            throw .corrupt(path, "a journal record is not JSON: \(error)")
        }
        guard let root = value.objectValue, let trees = root["trees"]?.objectValue, let removed = root["removedTrees"]?.arrayValue
        else { throw .corrupt(path, "a journal record has no trees") }
        var controllers: [String: [String: [String: JSONValue]?]] = [:]
        for (name, tree) in trees {
            guard let members = tree.objectValue else { throw .corrupt(path, "a journal record's tree \(name) is not an object") }
            var changed: [String: [String: JSONValue]?] = [:]
            for (controller, values) in members {
                if case .null = values {
                    changed[controller] = .some(nil)
                } else if let values = values.objectValue {
                    changed[controller] = values
                } else {
                    throw .corrupt(path, "a journal record's \(name): \(controller) is not an object")
                }
            }
            controllers[name] = changed
        }
        var removedTrees: Set<String> = []
        for name in removed {
            guard let name = name.stringValue else { throw .corrupt(path, "a journal record names a removed tree that is not a string") }
            removedTrees.insert(name)
        }
        return StateChange(controllers: controllers, removedTrees: removedTrees)
    }
}
