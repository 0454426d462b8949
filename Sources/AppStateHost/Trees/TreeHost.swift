import AppStateCore
import AppStateIPC
import StateContainers
import TreeFiles

/// The trees the daemon hosts, on the main actor as UIKit's are: built from a tree file,
/// restored from the state directory, changed by the ``CallProcessor``'s calls.
@MainActor package final class TreeHost {
    package private(set) var trees: [HostedTree]
    private let clock: any Clock<Duration>
    /// The trees' snapshots for readers on other threads; see ``publish()``.
    let published: PublishedTrees
    /// Called after an animated transition of a tree finished and was published.
    var afterDeferredChange: @MainActor (HostedTree) -> Void = { _ in }
    /// Called after the trees were replaced by a reload.
    var afterReload: @MainActor () -> Void = {}

    /// Builds the trees of a tree file and restores saved state into them before any view
    /// loads, so that restoring neither runs `viewDidLoad` early nor sends appearance callbacks
    /// twice (`Sources/StateContainers/StateContainers.docc/Restoration.md`); they are not
    /// visible until ``makeVisible()``.
    /// - Parameters:
    ///   - file: The trees to build: a valid file, as `TreeFileLoader` and `HostedTreeFile`'s
    ///     decoders return it, or one that `validate()` passed; it is not checked again.
    ///   - state: Saved state to restore; trees it does not name keep their initial state.
    ///   - clock: The clock transitions take their duration on.
    /// - Throws: ``TreeFileError`` when a tree cannot be built, ``ContainmentError`` for saved
    ///   state of another version.
    package init(file: HostedTreeFile, restoring state: StateDocument? = nil, clock: any Clock<Duration> = ContinuousClock()) throws {
        self.clock = clock
        let trees = try TreeHost.build(file, restoring: state, clock: clock)
        self.trees = trees
        self.published = PublishedTrees(TreeHost.snapshots(of: trees))
        watchDeferredChanges()
    }

    /// Publishes the trees as they are now to the readers on other threads. Every change
    /// must be followed by a publish before its reply or event goes out.
    func publish() {
        published.publish(TreeHost.snapshots(of: trees, reusing: published.snapshots))
    }

    /// Each tree's snapshot, sharing with `previous` (the last published) what did not change
    /// since, so that publishing after a change allocates, and the watchers' diff looks at,
    /// what changed only.
    private static func snapshots(of trees: [HostedTree], reusing previous: TreeSnapshots? = nil) -> TreeSnapshots {
        TreeSnapshots(
            trees: trees.map { tree in
                let earlier = try? previous?.root(named: tree.name)
                let root = earlier.map { tree.root.snapshot(reusing: $0) } ?? tree.root.snapshot()
                return TreeSnapshots.Tree(name: tree.name, root: withTreeMembers(root, of: tree, earlier: earlier))
            })
    }

    /// A tree's snapshot as it is now, published or not, with what the tree says of its root.
    /// - Parameter tree: One of the trees.
    func snapshot(of tree: HostedTree) -> NodeSnapshot {
        Self.withTreeMembers(tree.root.snapshot(), of: tree, earlier: try? published.snapshots.root(named: tree.name))
    }

    /// The root's snapshot with what the tree, rather than its root controller, says of it:
    /// its offline page and whether it is blanked. The controller's own snapshot leaves them
    /// out, so the earlier published root is taken again when nothing differs from it, as the
    /// controller's snapshot would be: publishing an unchanged tree allocates nothing.
    private static func withTreeMembers(_ root: NodeSnapshot, of tree: HostedTree, earlier: NodeSnapshot?) -> NodeSnapshot {
        let blanked: Bool? = tree.blanked ? true : nil
        guard root.offline != tree.offline || root.blanked != blanked else { return root }
        var root = root
        root.offline = tree.offline
        root.blanked = blanked
        if let earlier, root.hasSameOwnMembers(as: earlier), root.children == earlier.children { return earlier }
        return root
    }

    /// An animated transition finishes on the window's clock, after the call that started
    /// it was answered: what it changed is published then.
    private func watchDeferredChanges() {
        for tree in trees {
            tree.window.afterDeferredChange = { [weak self, weak tree] in
                guard let self, let tree else { return }
                self.publish()
                self.afterDeferredChange(tree)
            }
        }
    }

    /// The names of the trees, the default one first.
    package var treeNames: [String] { trees.map(\.name) }

    /// Shows every tree: appearance callbacks flow down.
    package func makeVisible() {
        for tree in trees { tree.window.makeVisible() }
        publish()
    }

    /// The tree with a name, or the first tree for nil.
    /// - Throws: `io.appstate.NoSuchTree`.
    func tree(named name: String?) throws(VarlinkError) -> HostedTree {
        try TreeSnapshots.tree(named: name, in: trees) { $0.name }
    }

    /// The restorable state of every tree, including the subtrees containers keep hidden
    /// (the logged-in child while nobody is logged in).
    var restorableState: StateDocument {
        StateDocument(trees: Dictionary(uniqueKeysWithValues: trees.map { ($0.name, $0.root.encodeRestorableTree()) }))
    }

    /// The restorable state of every tree, as ``restorableState`` gives it, and the change
    /// from an earlier state. From the state the last call returned, each tree reports the
    /// controllers it encoded again since, so a change costs what it touched, not the size
    /// of the trees; from any other (one ``restore(_:)`` put the trees back to) the trees are
    /// compared whole.
    /// - Parameter earlier: The state to compare with.
    /// - Returns: The state, and the change from `earlier` to it.
    func restorableChange(since earlier: StateDocument) -> (document: StateDocument, change: StateChange) {
        var document = StateDocument()
        var changed: [String: [String: [String: JSONValue]?]] = [:]
        for tree in trees {
            let (saved, changes) = tree.root.encodeRestorableChanges(since: earlier.trees[tree.name] ?? RestorationDocument())
            document.trees[tree.name] = saved
            if !changes.isEmpty { changed[tree.name] = changes }
        }
        let removed = Set(earlier.trees.keys.filter { document.trees[$0] == nil })
        return (document, StateChange(controllers: changed, removedTrees: removed))
    }

    /// Puts the trees back into a saved state, to undo a mutation whose commit failed; trees
    /// the document does not name keep their state.
    /// - Parameter document: The saved state.
    /// - Throws: ``ContainmentError`` for a tree document of another version.
    func restore(_ document: StateDocument) throws {
        for tree in trees {
            if let saved = document.trees[tree.name] { try tree.root.decodeRestorableTree(saved) }
        }
    }

    /// Replaces the trees with those of a new tree file, carrying the restorable state over.
    /// - Parameter file: The new trees, valid as ``init(file:restoring:clock:)`` takes them.
    /// - Throws: ``TreeFileError`` when a tree cannot be built; the old trees stay then.
    package func reload(_ file: HostedTreeFile) throws {
        let replacement = try TreeHost.build(file, restoring: restorableState, clock: clock)
        // A blanked screen stays blanked: a reload is no one at the screen.
        let blanked = Set(trees.filter(\.blanked).map(\.name))
        for tree in replacement { tree.blanked = blanked.contains(tree.name) }
        for tree in trees { tree.window.rootController = nil }
        trees = replacement
        watchDeferredChanges()
        makeVisible()
        publish()
        afterReload()
    }

    private static func build(_ file: HostedTreeFile, restoring state: StateDocument?, clock: any Clock<Duration>) throws -> [HostedTree] {
        try file.trees.map { tree in
            let root = try TreeBuilder.makeRootController(forValidated: tree.spec)
            if let saved = state?.trees[tree.name] { try root.decodeRestorableTree(saved) }
            return HostedTree(
                name: tree.name, window: Window(size: tree.window, clock: clock), root: root, idleSteps: tree.idle, offline: tree.offline)
        }
    }
}
