import AppStateCore

/// A drop-down menu container: one of its items is active and shown, the menu listing them
/// can be shown and hidden, and the container's title is the active item's.
///
/// Every item is a child, as the tabs of `UITabBarController` are; only the active item's
/// view is installed. Selecting an item swaps the installed view with
/// ``Controller/transition(from:to:duration:animations:completion:)``, which sends the
/// appearance callbacks; no item joins or leaves then, so no `willMove`/`didMove` is sent.
/// ``setViewControllers(_:)`` is where items join and leave, with the full swap timeline
/// when the active item leaves.
public final class MenuController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The items, in menu order. All of them are children of the container.
    public private(set) var viewControllers: [Controller]

    /// The item shown; nil only when there are no items.
    public private(set) var activeViewController: Controller? {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// Whether the list of items is shown. Selecting an item hides it, as choosing from a
    /// drop-down closes it. Not restored: it is transient, like a keyboard.
    public private(set) var isMenuVisible = false {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// How long a swap of the shown item takes on the window's clock; zero (the default)
    /// swaps at once.
    public var transitionDuration: Duration = .zero

    /// Creates a menu showing its first item.
    /// - Parameters:
    ///   - identifier: The container's identifier.
    ///   - viewControllers: The items, in menu order; may be empty.
    ///   - title: The title shown while the active item has none.
    /// - Throws: ``ContainmentError/invalidArgument`` for an item identifier that is empty or
    ///   contains `/`, ``ContainmentError/duplicateIdentifier`` when two items share one.
    public init(identifier: String, viewControllers: [Controller], title: String? = nil) throws {
        self.viewControllers = viewControllers
        activeViewController = viewControllers.first
        super.init(identifier: identifier, title: title)
        try adoptChildren(viewControllers, noun: "menu item")
    }

    /// The active item's title, else the menu's own: a drop-down's button names what it shows.
    /// Setting it sets the menu's own title.
    public override var title: String? {
        get { activeViewController?.title ?? super.title }
        set { super.title = newValue }
    }

    /// The active item.
    public override var currentChild: Controller? { activeViewController }

    /// Replaces the items. The active item stays active if it is still in the list, else the
    /// first item becomes active. Items that leave get `willMove(toParent: nil)` and
    /// `removeFromParent()`; items that join get `addChild` and `didMove(toParent:)`; an
    /// active item that leaves for another swaps with the full timeline of the containment
    /// contract. (A throwing setter is impossible in Swift, hence a method.)
    /// - Parameter controllers: The new items, in menu order; may be empty.
    /// - Throws: ``ContainmentError/invalidArgument`` for an identifier that is empty or
    ///   contains `/`, ``ContainmentError/duplicateIdentifier`` when two items share one,
    ///   ``ContainmentError/cycle`` for the menu itself or one of its ancestors,
    ///   ``ContainmentError/transitionInProgress`` while a transition runs in or below the
    ///   menu or the menu itself is appearing or disappearing.
    ///   Nothing changes then.
    public func setViewControllers(_ controllers: [Controller]) throws {
        try checkReadyToSwap()
        try validateIncomingChildren(controllers, noun: "menu item")
        func isKept(_ controller: Controller) -> Bool { controllers.contains { $0 === controller } }
        let old = activeViewController
        let next = old.flatMap { isKept($0) ? $0 : nil } ?? controllers.first
        var leaving = old.flatMap { isKept($0) || $0.parent !== self ? nil : $0 }
        leaving?.willMove(toParent: nil)
        for controller in viewControllers where controller !== old && !isKept(controller) { releaseChild(controller) }
        if let gone = leaving, next == nil || controllers.contains(where: { $0.identifier == gone.identifier }) {
            // With nothing to swap to, or with a newcomer taking its identifier (siblings
            // cannot share one), the old item leaves before anything joins.
            gone.loadedView?.removeFromSuperview()
            gone.removeFromParent()
            leaving = nil
        }
        let joining = controllers.filter { $0.parent !== self }
        for controller in joining {
            try addChild(controller)
            if controller !== next { controller.didMove(toParent: self) }
        }
        viewControllers = controllers
        activeViewController = next
        // Keep `children` in menu order so snapshots list the items as the menu does.
        children = controllers + (leaving.map { [$0] } ?? [])
        let nextJoined = joining.contains { $0 === next }
        if let leaving, let next {
            replaceCurrentChildView(leaving, with: next, duration: transitionDuration) {
                leaving.removeFromParent()
                if nextJoined { next.didMove(toParent: self) }
            }
        } else if let next, next !== old {
            installCurrentChildView(next)
            if nextJoined { next.didMove(toParent: self) }
        }
    }

    /// Shows the item with the given identifier and hides the menu.
    /// - Parameter identifier: The item's identifier.
    /// - Throws: ``ContainmentError/noSuchChild`` when no item has that identifier,
    ///   ``ContainmentError/transitionInProgress`` while a transition runs in or below the
    ///   menu or the menu itself is appearing or disappearing.
    ///   Nothing changes then.
    public func select(identifier: String) throws {
        guard let next = viewControllers.first(where: { $0.identifier == identifier }), let old = activeViewController else {
            throw ContainmentError.noSuchChild.with("\(self.identifier) has no menu item named \(identifier)")
        }
        if next !== old {
            try checkReadyToSwap()
            activate(next, replacing: old, duration: transitionDuration)
        }
        isMenuVisible = false
    }

    /// Shows the list of items.
    public func showMenu() {
        isMenuVisible = true
    }

    /// Hides the list of items.
    public func hideMenu() {
        isMenuVisible = false
    }

    /// Shows the list of items if hidden, else hides it.
    public func toggleMenu() {
        isMenuVisible.toggle()
    }

    /// Installs the active item's view, the only one this container shows.
    public override func viewDidLoad() {
        super.viewDidLoad()
        if let activeViewController { installCurrentChildView(activeViewController) }
    }

    /// Makes the active item's view fill the container.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        activeViewController?.view.frame = view.bounds
    }

    /// Saves the active item's identifier.
    /// - Parameter coder: Where to put the state.
    public override func encodeRestorableState(with coder: RestorationCoder) {
        super.encodeRestorableState(with: coder)
        if let activeViewController { coder.encode(activeViewController.identifier, forKey: RestorationKey.active) }
    }

    /// Makes the saved item active again; an identifier that names no item is ignored. Before
    /// the tree appears this neither loads views nor sends appearance callbacks.
    /// - Parameter coder: The saved state.
    public override func decodeRestorableState(with coder: RestorationCoder) {
        super.decodeRestorableState(with: coder)
        guard let saved = coder.decodeString(forKey: RestorationKey.active),
            let next = viewControllers.first(where: { $0.identifier == saved }),
            let old = activeViewController, next !== old, swapBlocker == nil
        else { return }
        activate(next, replacing: old, duration: .zero)
    }

    /// Adds the menu's visibility to the snapshot.
    /// - Parameter node: The snapshot being built for this controller.
    public override func describe(in node: inout NodeSnapshot) {
        super.describe(in: &node)
        node.menuVisible = isMenuVisible
    }

    private enum RestorationKey {
        static let active = "active"
    }

    private func activate(_ next: Controller, replacing old: Controller, duration: Duration) {
        activeViewController = next
        replaceCurrentChildView(old, with: next, duration: duration) {}
    }
}

extension MenuController {
    /// `MenuController` in a tree file: its items as its children, at least one, and
    /// `transitionMs`.
    public enum Kind: ControllerKind {
        /// `MenuController`.
        public static let typeName = "MenuController"
        /// At least one child: its items (a menu made in code may start empty and get them later).
        public static let children = ChildRule(minimum: 1, maximum: nil, roles: "its items")
        /// `transitionMs`.
        public static let keys = [NodeKey.transitionMs]

        /// Makes the menu, showing its first item.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: The items.
        ///   - build: Not needed.
        /// - Returns: The menu.
        /// - Throws: What ``MenuController/init(identifier:viewControllers:title:)`` throws.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            let controller = try MenuController(identifier: node.id, viewControllers: children, title: node.title)
            if let duration = node.transitionDuration { controller.transitionDuration = duration }
            return controller
        }
    }
}
