extension NodeSnapshot {
    /// What a snapshot changed from an earlier one of the same tree, as `Watch` sends it.
    public struct Changes: Hashable, Sendable {
        /// The smallest subtrees that hold every change, each as it is now: put each in place
        /// of the node at its path, children included.
        public var changed: [NodeSnapshot]
        /// The paths of the nodes that are gone, with their descendants.
        public var removed: [String]

        /// Creates a set of changes.
        /// - Parameters:
        ///   - changed: The subtrees to put in place of the nodes at their paths.
        ///   - removed: The paths of the nodes that are gone.
        public init(changed: [NodeSnapshot] = [], removed: [String] = []) {
            self.changed = changed
            self.removed = removed
        }

        /// Whether nothing changed.
        public var isEmpty: Bool { changed.isEmpty && removed.isEmpty }
    }

    /// What changed since `old`: a node whose own members or list of children differ is sent
    /// whole, with its subtree, and nothing below it is looked at; children that are gone are
    /// named. A client that applies them to `old` (``applying(_:)``) has this snapshot.
    ///
    /// A node is compared with the node of the same path only, so the result stays small for
    /// the changes a UI makes (a page turned, a keyboard shown) and is the whole tree when the
    /// root itself changed.
    /// - Parameter old: The earlier snapshot.
    /// - Returns: The changes; empty when the snapshots are equal.
    public func changes(since old: NodeSnapshot) -> Changes {
        var changes = Changes()
        collectChanges(since: old, into: &changes)
        return changes
    }

    /// This snapshot with changes applied: each removed node taken out of its parent, then
    /// each changed subtree put in place of the node at its path. Paths this snapshot does not
    /// have are passed over, so applying the same changes twice gives the same result.
    /// - Parameter changes: Changes as ``changes(since:)`` makes them.
    /// - Returns: The snapshot after the changes.
    public func applying(_ changes: Changes) -> NodeSnapshot {
        var result = self
        for path in changes.removed { result.replace(at: path, with: nil) }
        for subtree in changes.changed { result.replace(at: subtree.path, with: subtree) }
        return result
    }

    private func collectChanges(since old: NodeSnapshot, into changes: inout Changes) {
        // A node carried over from the earlier snapshot (`Controller.snapshot(reusing:)`) is
        // the earlier node itself: nothing in its subtree can differ.
        guard !isIdentical(to: old) else { return }
        guard hasSameOwnMembers(as: old),
            children.elementsEqual(old.children, by: { $0.identifier == $1.identifier })
        else {
            changes.changed.append(self)
            let identifiers = Set(children.map(\.identifier))
            changes.removed += old.children.filter { !identifiers.contains($0.identifier) }.map(\.path)
            return
        }
        // Children carried over unchanged from the earlier snapshot (`Controller.snapshot(reusing:)`)
        // are the same array: nothing below can differ.
        guard !children.sharesStorage(with: old.children) else { return }
        for (child, oldChild) in zip(children, old.children) {
            child.collectChanges(since: oldChild, into: &changes)
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
