import AppStateIPC

/// `Blank` and `Wake`: whether a tree's screen is blanked, which its root's snapshot says
/// (`blanked`) and its kiosk carries out, covering the page and turning the output off.
extension TreeHost {
    func blank(_ parameters: Blank.Parameters) throws(VarlinkError) -> (Blank.Reply, Event?) {
        try setBlanked(true, tree: parameters.tree, method: .blank)
    }

    func wake(_ parameters: Wake.Parameters) throws(VarlinkError) -> (Wake.Reply, Event?) {
        try setBlanked(false, tree: parameters.tree, method: .wake)
    }

    /// Blanks or wakes a tree: an event, on the root, only when that changed something.
    private func setBlanked(_ blanked: Bool, tree name: String?, method: AppStateMethod) throws(VarlinkError) -> (Blank.Reply, Event?) {
        let tree = try tree(named: name)
        guard tree.blanked != blanked else { return (Blank.Reply(changed: false), nil) }
        tree.blanked = blanked
        return (Blank.Reply(changed: true), event(tree, method, path: tree.root.path))
    }
}
