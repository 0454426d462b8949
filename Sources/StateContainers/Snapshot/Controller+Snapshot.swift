import AppStateCore

extension Controller {
    /// Identifiers from the root to this controller joined by `/`; a child a container
    /// keeps hidden has the path it has when shown, and a presented controller's path is the
    /// path of the controller presenting it followed by its identifier.
    public var path: String {
        guard pathParent != nil else { return identifier }
        // Its length counted first, then written once from its end: every change names the
        // deepest current controller by its path, and joining level by level would allocate at
        // each level.
        var length = -1
        var measured: Controller? = self
        while let current = measured {
            length += 1 + current.identifier.utf8.count
            measured = current.pathParent
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var end = length
            var controller: Controller? = self
            while let current = controller {
                let bytes = current.identifier.utf8
                end -= bytes.count
                _ = UnsafeMutableBufferPointer(rebasing: buffer[end..<end + bytes.count]).initialize(from: bytes)
                controller = current.pathParent
                if controller != nil {
                    end -= 1
                    buffer[end] = UInt8(ascii: "/")
                }
            }
            return length
        }
    }

    /// The controller at a path relative to this one (`home/pages`), or this one for an empty
    /// path. Hidden children (``configuredChildren``) and presented controllers are
    /// addressable too.
    /// - Parameter relativePath: Child identifiers joined by `/`.
    public func descendant(at relativePath: String) -> Controller? {
        NodePath.descendant(at: relativePath[...], of: self, identifier: \.identifier, children: \.treeChildren)
    }

    /// The controller at a full path from the tree's root (`session/home/pages`), spelled the
    /// one way `NodePath` accepts, in this controller's subtree.
    /// - Parameter path: Identifiers from the root down, joined by `/`.
    public func descendant(atPath path: String) -> Controller? {
        NodePath.relative(path, below: self.path).flatMap { descendant(at: String($0)) }
    }

    /// The end of the deepest chain of current children from this controller, going through
    /// the controller it presents, where it presents one, rather than its current child: what
    /// is on top of the screen.
    public var deepestCurrent: Controller {
        var controller = self
        while let next = controller.presentation?.presented ?? controller.currentChild { controller = next }
        return controller
    }

    /// The state of this controller and its subtree, the controller it presents last among its
    /// children and marked `presented`. Takes no view loads: an unloaded view reports a zero frame.
    ///
    /// Only the controllers marked since the last snapshot (``setNeedsSnapshotUpdate()``), their
    /// ancestors and the controllers of classes that do not mark their changes
    /// (``marksSnapshotUpdates``) are described again; every other subtree is the node made
    /// for it last time.
    public func snapshot() -> NodeSnapshot {
        snapshot(path: path, reusing: nil).node
    }

    /// The state of this controller and its subtree, as ``snapshot()`` gives it, sharing with
    /// an earlier snapshot of the same controller every subtree that has not changed since:
    /// those nodes are the earlier ones when `previous` is the last snapshot taken, and their
    /// children arrays the earlier arrays, so taking a snapshot after a change visits and
    /// allocates for what changed only, and comparing the two (`NodeSnapshot.changes(since:)`)
    /// skips what they share.
    /// - Parameter previous: An earlier snapshot of this controller.
    /// - Returns: The snapshot.
    public func snapshot(reusing previous: NodeSnapshot) -> NodeSnapshot {
        let path = self.path
        return snapshot(path: path, reusing: previous.path == path ? previous : nil).node
    }

    /// Marks this controller's snapshot and restorable state as out of date, as
    /// `setNeedsLayout()` marks a view's layout: the next snapshot describes it again, and the
    /// next ``encodeRestorableTree()`` encodes it again, with its ancestors, whose subtrees
    /// hold it. The properties of the base class and of the containers of this module mark by
    /// themselves; a subclass calls it when something its ``describe(in:)`` reports or its
    /// ``encodeRestorableState(with:)`` saves changes.
    public func setNeedsSnapshotUpdate() {
        needsSnapshotUpdate = true
        needsRestorationUpdate = true
        // Marked ancestors have marked ancestors: the walk ends at the first one.
        var ancestor = pathParent
        while let current = ancestor, !(current.needsSnapshotUpdate && current.needsRestorationUpdate) {
            current.needsSnapshotUpdate = true
            current.needsRestorationUpdate = true
            ancestor = current.pathParent
        }
    }

    /// This subtree's snapshot, and whether it can be reused next time without a visit.
    private func snapshot(path: String, reusing previous: NodeSnapshot?) -> (node: NodeSnapshot, kept: Bool) {
        // A node made at another path belongs to a subtree that moved: its paths are stale.
        if !needsSnapshotUpdate, let kept = snapshotNode, kept.path == path { return (kept, true) }
        let previous = previous ?? snapshotNode.flatMap { $0.path == path ? $0 : nil }
        let previousChildren = previous?.children ?? []
        let configured = treeChildren
        var childrenKept = true
        // The children's snapshots, made only once one differs from the earlier one at its
        // place: the earlier ones, where each differing one then replaces its own.
        var children: [NodeSnapshot]?
        for (index, child) in configured.enumerated() {
            let earlier = index < previousChildren.count ? previousChildren[index] : nil
            // An unmarked child whose kept node is the earlier one at its place, as most
            // children of a container are at a change of one of them, is left alone without a call.
            if let earlier, !child.needsSnapshotUpdate, let kept = child.snapshotNode, kept.isIdentical(to: earlier) { continue }
            let reused = earlier?.identifier == child.identifier ? earlier : nil
            let (node, kept) = child.snapshot(path: reused?.path ?? "\(path)/\(child.identifier)", reusing: reused)
            childrenKept = childrenKept && kept
            if let earlier, node.isIdentical(to: earlier) { continue }
            if children == nil {
                children = Array(previousChildren.prefix(configured.count))
                children?.reserveCapacity(configured.count)
            }
            if index < previousChildren.count { children?[index] = node } else { children?.append(node) }
        }
        let childrenReused = children == nil && configured.count == previousChildren.count
        var node = NodeSnapshot(
            path: path,
            identifier: identifier,
            type: snapshotTypeName,
            title: title,
            url: url,
            appearance: appearance,
            frame: loadedView.map { $0.convert($0.bounds, to: nil) } ?? .zero,
            contentInset: loadedView?.contentInset ?? .zero,
            onScreen: loadedView?.isOnScreen ?? false,
            // Every child unchanged: the earlier array itself, or its first part when the
            // last children are gone.
            children: children ?? (childrenReused ? previousChildren : Array(previousChildren[..<configured.count]))
        )
        describe(in: &node)
        if presenter != nil { node.presented = true }
        if let previous, childrenReused, node.hasSameOwnMembers(as: previous) { node = previous }
        snapshotNode = node
        needsSnapshotUpdate = !(childrenKept && type(of: self).marksSnapshotUpdates)
        return (node, !needsSnapshotUpdate)
    }

    /// The controller this one's path continues: its parent, the container keeping it hidden,
    /// or the controller presenting it.
    var pathParent: Controller? { parent ?? keeper ?? presenter }
}
