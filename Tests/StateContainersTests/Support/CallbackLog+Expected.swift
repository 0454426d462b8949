/// The sequences of the containment contract that many tests expect, spelled in a log's
/// spelling: written once here, so that a test names the sequence it expects and spells out
/// only what is particular to it.
///
/// Each returns exactly the entries the contract sends, in its order
/// (`Sources/StateContainers/StateContainers.docc/ContainmentContract.md`).
extension CallbackLog {
    /// A tree appearing: the `viewWillAppear` of each of `identifiers` in the order given
    /// (parents before their children), then each one's `viewDidAppear` in the same order.
    func appearing(_ identifiers: String..., animated: Bool = false) -> [String] {
        cascade(identifiers, will: "viewWillAppear", did: "viewDidAppear", animated: animated)
    }

    /// A tree disappearing: every `viewWillDisappear`, then every `viewDidDisappear`, in the
    /// order given.
    func disappearing(_ identifiers: String..., animated: Bool = false) -> [String] {
        cascade(identifiers, will: "viewWillDisappear", did: "viewDidDisappear", animated: animated)
    }

    /// `embed(_:)` of `child` in an on-screen `parent`: `willMove`, the view's loading when
    /// `loadingView`, the child appearing while it moves to its parent (its installed
    /// `descendants` after it, not moving), `didMove`.
    func embedding(_ child: String, in parent: String, loadingView: Bool = false, with descendants: String...) -> [String] {
        [entry(child, "willMove", argument: parent, label: "toParent")]
            + (loadingView ? [entry(child, "viewDidLoad")] : [])
            + cascade([child] + descendants, will: "viewWillAppear", did: "viewDidAppear", animated: false, movingTo: true)
            + [entry(child, "didMove", argument: parent, label: "toParent")]
    }

    /// `unembed()` of an on-screen `child`: `willMove(nil)`, the child disappearing while it
    /// moves from its parent (its installed `descendants` after it, not moving), `didMove(nil)`.
    func unembedding(_ child: String, with descendants: String...) -> [String] {
        [entry(child, "willMove", argument: "nil", label: "toParent")]
            + cascade([child] + descendants, will: "viewWillDisappear", did: "viewDidDisappear", animated: false, movingFrom: true)
            + [entry(child, "didMove", argument: "nil", label: "toParent")]
    }

    /// The `will` of each identifier, then the `did` of each; the first one moving to or from
    /// its parent when asked.
    private func cascade(
        _ identifiers: [String], will: String, did: String, animated: Bool, movingTo: Bool = false, movingFrom: Bool = false
    ) -> [String] {
        [will, did].flatMap { callback in
            identifiers.enumerated().map { index, identifier in
                entry(identifier, callback, argument: "\(animated)", movingTo: movingTo && index == 0, movingFrom: movingFrom && index == 0)
            }
        }
    }
}

/// The seven-step swap timeline (`ContainmentContract.md`) as the containers run it.
///
/// `oldLeaves` and `newJoins` say whether each child leaves or joins `parent` in the swap
/// (with `willMove` and `didMove`, and moving from or to it in the appearance callbacks): both
/// for the containers that keep only the shown child, neither for those that keep every child
/// (pages, menu items), one for a navigation stack (a push keeps the old top, a pop keeps the
/// new one). `new`'s view loads in the swap when `loadingView`.
extension CallbackLog {
    /// A whole swap, as it runs before `transition` returns for a zero duration.
    func swap(
        from old: String, to new: String, in parent: String, animated: Bool = false,
        oldLeaves: Bool = true, newJoins: Bool = true, loadingView: Bool = true
    ) -> [String] {
        swapBeginning(from: old, to: new, in: parent, animated: animated, oldLeaves: oldLeaves, newJoins: newJoins, loadingView: loadingView)
            + swapEnding(from: old, to: new, in: parent, animated: animated, oldLeaves: oldLeaves, newJoins: newJoins)
    }

    /// Steps 1 to 3: the moves announced, `new`'s view loaded, both appearance transitions begun.
    func swapBeginning(
        from old: String, to new: String, in parent: String, animated: Bool = false,
        oldLeaves: Bool = true, newJoins: Bool = true, loadingView: Bool = true
    ) -> [String] {
        (oldLeaves ? [entry(old, "willMove", argument: "nil", label: "toParent")] : [])
            + (newJoins ? [entry(new, "willMove", argument: parent, label: "toParent")] : [])
            + (loadingView ? [entry(new, "viewDidLoad")] : [])
            + [
                entry(old, "viewWillDisappear", argument: "\(animated)", movingFrom: oldLeaves),
                entry(new, "viewWillAppear", argument: "\(animated)", movingTo: newJoins),
            ]
    }

    /// Steps 5 to 7, once the duration has passed: both appearance transitions ended, the moves done.
    func swapEnding(
        from old: String, to new: String, in parent: String, animated: Bool = false,
        oldLeaves: Bool = true, newJoins: Bool = true
    ) -> [String] {
        [
            entry(old, "viewDidDisappear", argument: "\(animated)", movingFrom: oldLeaves),
            entry(new, "viewDidAppear", argument: "\(animated)", movingTo: newJoins),
        ]
            + (oldLeaves ? [entry(old, "didMove", argument: "nil", label: "toParent")] : [])
            + (newJoins ? [entry(new, "didMove", argument: parent, label: "toParent")] : [])
    }
}
