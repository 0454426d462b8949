import AppStateCore
import AppStateIPC

/// What a `Watch` stream asked to be sent: a subtree or the whole tree, and the changes (as
/// patches or as subtrees) or the whole of it every time.
struct WatchSubscription: Hashable, Sendable {
    /// The path of the subtree followed; nil for the whole tree.
    var path: String?
    /// Whether every reply carries the whole (sub)tree.
    var full: Bool
    /// Whether changes are sent as whole subtrees rather than as the members that changed.
    var subtrees = false

    /// The reply that tells this subscription of a change, or nil when nothing it follows
    /// changed: a subtree's watcher is only told of changes under it, and of events of
    /// containers under it.
    /// - Parameters:
    ///   - event: The change.
    ///   - previous: The tree before it.
    ///   - root: The tree after it.
    func reply(to event: Event, from previous: Node, to root: Node) -> Watch.Reply? {
        let (old, new) = path.map { (previous.node(at: $0), root.node(at: $0)) } ?? (previous, root)
        let changes: Node.Changes
        switch (old, new) {
        case (let old?, let new?): changes = new.changes(since: old, patching: !full && !subtrees)
        case (nil, let new?): changes = Node.Changes(changed: [new])
        // The subtree followed is gone (a navigation stack popped it), in either mode.
        case (_?, nil): return Watch.Reply(event: event, removed: [path ?? root.path])
        case (nil, nil): return nil
        }
        if let path, changes.isEmpty, !(event.path.map { NodePath.relative($0, below: path) != nil } ?? false) { return nil }
        if full { return Watch.Reply(event: event, root: new) }
        if subtrees { return Watch.Reply(event: event, changed: changes.changed, removed: changes.removed) }
        // Members left out when empty: a patch is most changes' whole reply.
        return Watch.Reply(
            event: event, changed: changes.changed.isEmpty ? nil : changes.changed,
            patches: changes.patches.isEmpty ? nil : changes.patches.mapValues(JSONValue.object),
            removed: changes.removed.isEmpty ? nil : changes.removed)
    }
}
