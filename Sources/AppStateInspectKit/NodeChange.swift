import AppStateCore
import AppStateIPC

/// What one event did to one controller: the members of its `io.appstate.Node` that
/// differ between the tree before the event and the tree after it, with both values; or
/// that the controller appeared or disappeared (a tree file reloaded with other nodes).
///
/// Children are compared as controllers of their own, each at its path, never as a member
/// of their parent, so a change deep in the tree touches only the nodes it changed.
public struct NodeChange: Hashable, Sendable {
    /// One member that changed.
    public struct Field: Hashable, Sendable {
        /// The member's name in `io.appstate.Node`, e.g. `frame`.
        public var name: String
        /// The value before the event; `nil` when the member was absent.
        public var before: JSONValue?
        /// The value after the event; `nil` when the member is absent.
        public var after: JSONValue?

        /// Creates a field.
        /// - Parameters:
        ///   - name: The member's name.
        ///   - before: The value before the event.
        ///   - after: The value after the event.
        public init(name: String, before: JSONValue?, after: JSONValue?) {
            self.name = name
            self.before = before
            self.after = after
        }
    }

    /// Whether the controller changed, appeared or disappeared.
    public enum Kind: String, Hashable, Sendable {
        /// It was there before and after, with the ``NodeChange/fields`` different.
        case changed
        /// It is new: every field is in ``NodeChange/fields`` with no value before.
        case added
        /// It is gone: every field is in ``NodeChange/fields`` with no value after.
        case removed
    }

    /// The controller's path.
    public var path: String
    /// Whether it changed, appeared or disappeared.
    public var kind: Kind
    /// The members that differ, in the order `io.appstate.Node` declares them.
    public var fields: [Field]

    /// Creates a change.
    /// - Parameters:
    ///   - path: The controller's path.
    ///   - kind: Whether it changed, appeared or disappeared.
    ///   - fields: The members that differ.
    public init(path: String, kind: Kind, fields: [Field]) {
        self.path = path
        self.kind = kind
        self.fields = fields
    }

    /// The controllers that differ between two trees: those of `after` in document order,
    /// then those only `before` had.
    /// - Parameters:
    ///   - before: The tree before the event.
    ///   - after: The tree after it.
    /// - Returns: One change per controller that differs; empty when the trees are equal.
    public static func changes(from before: Node, to after: Node) -> [NodeChange] {
        var old: [String: [String: JSONValue]] = [:]
        for (path, members) in flatten(before) { old[path] = members }
        var result: [NodeChange] = []
        var seen: Set<String> = []
        for (path, members) in flatten(after) {
            seen.insert(path)
            let fields = differences(old[path], members)
            if !fields.isEmpty { result.append(NodeChange(path: path, kind: old[path] == nil ? .added : .changed, fields: fields)) }
        }
        for (path, members) in flatten(before) where !seen.contains(path) {
            result.append(NodeChange(path: path, kind: .removed, fields: differences(members, nil)))
        }
        return result
    }

    /// The change as the page reads it: `{"path", "kind", "fields": [{"name", "before", "after"}]}`.
    public var json: JSONValue {
        .object([
            "path": .string(path),
            "kind": .string(kind.rawValue),
            "fields": .array(
                fields.map { field in
                    var members: [String: JSONValue] = ["name": .string(field.name)]
                    members["before"] = field.before
                    members["after"] = field.after
                    return .object(members)
                }),
        ])
    }

    /// Each node's path and members without its children, in document order.
    private static func flatten(_ node: Node) -> [(String, [String: JSONValue])] {
        var members = node.parameters
        members["children"] = nil
        return [(node.path, members)] + node.children.flatMap(flatten)
    }

    private static func differences(_ before: [String: JSONValue]?, _ after: [String: JSONValue]?) -> [Field] {
        Node.memberNames.compactMap { name in
            let old = before?[name]
            let new = after?[name]
            return old == new ? nil : Field(name: name, before: old, after: new)
        }
    }
}
