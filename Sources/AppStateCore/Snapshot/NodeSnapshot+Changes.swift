extension NodeSnapshot {
    /// What a snapshot changed from an earlier one of the same tree, as `Watch` sends it.
    public struct Changes: Hashable, Sendable {
        /// The smallest subtrees that hold every change, each as it is now: put each in place
        /// of the node at its path, children included.
        public var changed: [NodeSnapshot]
        /// The paths of the nodes that are gone, with their descendants.
        public var removed: [String]
        /// For each node whose own members changed, by its path: a JSON Merge Patch (RFC 7386)
        /// of its members but its children, each member that changed with its value now and
        /// `null` for an optional member now absent.
        public var patches: [String: [String: JSONValue]]

        /// Creates a set of changes.
        /// - Parameters:
        ///   - changed: The subtrees to put in place of the nodes at their paths.
        ///   - removed: The paths of the nodes that are gone.
        ///   - patches: The members that changed, by the path of their node.
        public init(changed: [NodeSnapshot] = [], removed: [String] = [], patches: [String: [String: JSONValue]] = [:]) {
            self.changed = changed
            self.removed = removed
            self.patches = patches
        }

        /// Whether nothing changed.
        public var isEmpty: Bool { changed.isEmpty && removed.isEmpty && patches.isEmpty }
    }

    /// What changed since `old`. Children that are gone are named. A node whose list of
    /// children differs is sent whole, with its subtree, and nothing below it is looked at. A
    /// node whose own members differ is sent whole too, when `patching` is false; when it is
    /// true, only the members that differ are (``Changes/patches``), and its children are
    /// compared in turn. A client that applies them to `old`
    /// (``applying(_:merging:)``) has this snapshot.
    ///
    /// A node is compared with the node of the same path only, so the result stays small for
    /// the changes a UI makes (a page turned, a keyboard shown).
    /// - Parameters:
    ///   - old: The earlier snapshot.
    ///   - patching: Whether a node whose own members changed is sent as the members that
    ///     changed rather than whole.
    /// - Returns: The changes; empty when the snapshots are equal.
    public func changes(since old: NodeSnapshot, patching: Bool = false) -> Changes {
        var changes = Changes()
        collectChanges(since: old, patching: patching, into: &changes)
        return changes
    }

    /// This snapshot with changes applied: each removed node taken out of its parent, then
    /// each changed subtree put in place of the node at its path, then each patch merged into
    /// the node at its path. Paths this snapshot does not have are passed over, so applying the
    /// same changes twice gives the same result.
    /// - Parameters:
    ///   - changes: Changes as ``changes(since:patching:)`` makes them.
    ///   - merge: The node with a patch merged into its members, children kept: a decoding
    ///     of the members, which the interface's module has (`Node.merging(_:)`).
    /// - Returns: The snapshot after the changes.
    /// - Throws: What `merge` throws.
    public func applying<Failure: Error>(
        _ changes: Changes, merging merge: (NodeSnapshot, [String: JSONValue]) throws(Failure) -> NodeSnapshot
    ) throws(Failure) -> NodeSnapshot {
        var result = self
        for path in changes.removed { result.replace(at: path, with: nil) }
        for subtree in changes.changed { result.replace(at: subtree.path, with: subtree) }
        for (path, patch) in changes.patches.sorted(by: { $0.key < $1.key }) {
            guard let node = result.node(at: path) else { continue }
            result.replace(at: path, with: try merge(node, patch))
        }
        return result
    }

    /// The node's members but its children, as JSON values.
    public var ownMembers: [String: JSONValue] {
        var childless = self
        childless.children = []
        var members = childless.jsonMembers
        members["children"] = nil
        return members
    }

    private func collectChanges(since old: NodeSnapshot, patching: Bool, into changes: inout Changes) {
        // A node carried over from the earlier snapshot (`Controller.snapshot(reusing:)`) is
        // the earlier node itself: nothing in its subtree can differ.
        guard !isIdentical(to: old) else { return }
        let sameOwnMembers = hasSameOwnMembers(as: old)
        // A node whose path changed is sent whole: its patch would be keyed by a path its
        // client does not have yet.
        guard sameOwnMembers || patching && path == old.path, children.elementsEqual(old.children, by: { $0.identifier == $1.identifier }) else {
            changes.changed.append(self)
            let identifiers = Set(children.map(\.identifier))
            changes.removed += old.children.filter { !identifiers.contains($0.identifier) }.map(\.path)
            return
        }
        if !sameOwnMembers {
            let (members, oldMembers) = (ownMembers, old.ownMembers)
            var patch = members.filter { oldMembers[$0.key] != $0.value }
            for key in oldMembers.keys where members[key] == nil { patch[key] = .null }
            changes.patches[path] = patch
        }
        // Children carried over unchanged from the earlier snapshot (`Controller.snapshot(reusing:)`)
        // are the same array: nothing below can differ.
        guard !children.sharesStorage(with: old.children) else { return }
        for (child, oldChild) in zip(children, old.children) {
            child.collectChanges(since: oldChild, patching: patching, into: &changes)
        }
    }

    /// Puts `subtree` in place of the node at `path` (below or at this node), or removes that
    /// node when `subtree` is nil.
    private mutating func replace(at path: String, with subtree: NodeSnapshot?) {
        guard let relative = NodePath.relative(path, below: self.path) else { return }
        guard !relative.isEmpty else {
            // The node itself: replaced, never removed, since a tree always has its root.
            if let subtree { self = subtree }
            return
        }
        let identifier = relative.prefix { $0 != "/" }
        guard let index = children.firstIndex(where: { $0.identifier == identifier }) else { return }
        if identifier.endIndex == relative.endIndex {
            if let subtree { children[index] = subtree } else { children.remove(at: index) }
        } else {
            children[index].replace(at: path, with: subtree)
        }
    }
}

extension Array {
    /// Whether two arrays are one buffer: the same elements without comparing them, as two
    /// copies of one array are until either changes.
    fileprivate func sharesStorage(with other: [Element]) -> Bool {
        withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress && mine.count == theirs.count }
        }
    }
}
