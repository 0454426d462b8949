/// A key that a kind of node takes in a tree file besides the keys every node has (`type`,
/// `id`, `title`, `restorationId`, `children`): `spacing` for a ``StackController``,
/// `transitionMs` for the containers that animate their swaps.
///
/// A kind lists its keys in ``ControllerKind/keys``; decoding reads each as the type it
/// declares, and validation reports a key given to a kind that does not take it, or a value the
/// key's own rule refuses, at the key's place in the file.
public struct NodeKey: Sendable {
    /// What a key's value is in the file.
    public enum ValueType: Hashable, Sendable {
        /// A number.
        case number
        /// A whole number.
        case integer
        /// A string.
        case string
        /// A list of nodes, each with its subtree: more controllers the kind makes from the
        /// file (a navigation controller's destinations). Validation checks them as it checks
        /// children, and the builder builds each once to report its problems with their places.
        case nodes
    }

    /// The key as the file spells it.
    public let name: String
    /// What its value is.
    public let type: ValueType
    private let rule: @Sendable (NodeValue) -> String?

    private init(_ name: String, _ type: ValueType, rule: @escaping @Sendable (NodeValue) -> String?) {
        self.name = name
        self.type = type
        self.rule = rule
    }

    /// A key whose value is a number.
    /// - Parameters:
    ///   - name: The key as the file spells it.
    ///   - problem: What is wrong with a value, in words quoting it, or nil when it is valid:
    ///     the container's own rule, which its initialiser applies too.
    public static func number(_ name: String, problem: @escaping @Sendable (Double) -> String? = { _ in nil }) -> NodeKey {
        NodeKey(name, .number) { if case .number(let number) = $0 { problem(number) } else { nil } }
    }

    /// A key whose value is a whole number.
    /// - Parameters:
    ///   - name: The key as the file spells it.
    ///   - problem: What is wrong with a value, in words quoting it, or nil when it is valid.
    public static func integer(_ name: String, problem: @escaping @Sendable (Int) -> String? = { _ in nil }) -> NodeKey {
        NodeKey(name, .integer) { if case .integer(let integer) = $0 { problem(integer) } else { nil } }
    }

    /// A key whose value is a string.
    /// - Parameters:
    ///   - name: The key as the file spells it.
    ///   - problem: What is wrong with a value, in words quoting it, or nil when it is valid.
    public static func string(_ name: String, problem: @escaping @Sendable (String) -> String? = { _ in nil }) -> NodeKey {
        NodeKey(name, .string) { if case .string(let text) = $0 { problem(text) } else { nil } }
    }

    /// A key whose value is a list of nodes, each with its subtree.
    /// - Parameter name: The key as the file spells it.
    public static func nodes(_ name: String) -> NodeKey {
        NodeKey(name, .nodes) { _ in nil }
    }

    /// What is wrong with a value of the key, or nil when it is valid.
    /// - Parameter value: The value the file gives.
    func problem(with value: NodeValue) -> String? {
        rule(value)
    }
}

extension NodeKey {
    /// `transitionMs`: how long a container's animated swaps take, in milliseconds; the
    /// container's default (no animation) when left out. The kinds of the containers that swap
    /// children take it.
    public static let transitionMs = NodeKey.integer("transitionMs") {
        $0 < 0 ? "transition duration must not be negative (got \($0))" : nil
    }
}

/// The value of a ``NodeKey`` in a node, of the key's ``NodeKey/ValueType``.
public enum NodeValue: Hashable, Sendable {
    /// A number.
    case number(Double)
    /// A whole number.
    case integer(Int)
    /// A string.
    case string(String)
    /// Nodes, each with its subtree.
    case nodes([NodeSpec])
}
