/// The state of one controller and its subtree, as clients see it: which screen, in which
/// rectangle, with which insets.
///
/// Its members are those of the interface's `io.appstate.Node`, generated from the interface
/// file with their accessors and memberwise initialiser: adding a member to the interface adds
/// it here. They live in one shared, copy-on-write box: a snapshot of a tree is copied node by
/// node wherever it is published, compared and sent, and a copy retains the box alone rather
/// than each member's references. Two nodes that share a box are known equal without
/// comparing a member.
public struct NodeSnapshot: Codable, Hashable, Sendable {
    @usableFromInline var storage: Storage

    /// A node holding `members` in a box of its own.
    /// - Parameter members: The node's members.
    init(members: Members) {
        storage = Storage(members)
    }

    /// Whether the two are one box: copies of one node that neither has changed since, so
    /// equal, subtree included.
    /// - Parameter other: Another snapshot node.
    /// - Returns: True when the nodes share their members; false says nothing.
    @inlinable public func isIdentical(to other: NodeSnapshot) -> Bool {
        storage === other.storage
    }

    /// The box, copied first when another node shares it or when its JSON text was made
    /// (``writeJSONReusingEncodings(into:)``), which the change would leave stale.
    @inlinable mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) || !storage.isUnencoded { storage = Storage(storage.members) }
        return storage
    }

    /// The node at `path` in this subtree, spelled the one way ``NodePath`` accepts.
    /// - Parameter path: A full path from the tree's root.
    public func node(at path: String) -> NodeSnapshot? {
        NodePath.relative(path, below: self.path).flatMap {
            NodePath.descendant(at: $0, of: self, identifier: \.identifier, children: \.children)
        }
    }

    /// The path of the deepest chain of current children from this node, going through the
    /// child marked ``presented`` where there is one, rather than the current child: what
    /// `GetCurrent` without a path answers when this is the root.
    public var deepestCurrentPath: String {
        if let presented = children.last, presented.presented == true { return presented.deepestCurrentPath }
        guard let current, let child = children.first(where: { $0.identifier == current }) else { return path }
        return child.deepestCurrentPath
    }
}
