/// A stack of screens of which only the top one is on screen, as `UINavigationController`.
///
/// The children are the stack. A push adds the new screen as a child and swaps the
/// installed view with the timeline of the containment contract (`willMove(toParent:)`,
/// the appearance callbacks of `transition(from:to:…)`, then `didMove(toParent:)`); a pop
/// does the mirror image and removes the old top when the swap finishes. ``stack`` changes
/// when the swap starts, as `viewControllers` does in UIKit; the leaving screen stays in
/// ``Controller/children`` until its view is gone.
public final class NavigationController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The screens from the root (first) to the top (last); never empty.
    public private(set) var stack: [Controller] {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// How long an animated push or pop takes on the window's clock; zero (the default)
    /// swaps at once.
    public var transitionDuration: Duration = .zero

    /// Makes the screen pushed by ``push(identifier:animated:)`` and restored by
    /// ``decodeRestorableState(with:)``, or nil for an identifier it does not know. The tree
    /// builder sets it.
    public var makeDestination: (@MainActor (String) -> Controller?)?

    /// Creates a stack holding only its root.
    /// - Parameters:
    ///   - identifier: The container's identifier.
    ///   - root: The bottom screen, which is never popped.
    ///   - title: A human-readable name.
    /// - Throws: ``ContainmentError/invalidArgument`` when the root's identifier is empty or
    ///   contains `/`.
    public init(identifier: String, root: Controller, title: String? = nil) throws {
        stack = [root]
        super.init(identifier: identifier, title: title)
        try adoptChildren([root], noun: "screen")
    }

    /// The bottom screen.
    public var root: Controller { stack[0] }

    /// The screen on top: the one on screen.
    public var top: Controller { stack[stack.count - 1] }

    /// The top screen.
    public override var currentChild: Controller? { top }

    /// Pushes a screen on top of the stack.
    /// - Parameters:
    ///   - controller: The screen; it leaves any other parent first.
    ///   - animated: Whether the swap takes ``transitionDuration``.
    /// - Throws: ``ContainmentError/duplicateIdentifier`` when a screen with its identifier is
    ///   in the stack, ``ContainmentError/transitionInProgress`` while a transition runs in or
    ///   below the stack or the stack itself is appearing or disappearing, and what
    ///   `addChild` throws. Nothing changes then.
    public func push(_ controller: Controller, animated: Bool) throws {
        try checkReadyToSwap()
        guard !stack.contains(where: { $0 === controller || $0.identifier == controller.identifier }) else {
            throw ContainmentError.duplicateIdentifier.with("\(identifier) already has a screen named \(controller.identifier)")
        }
        let old = top
        try addChild(controller)
        stack.append(controller)
        replaceCurrentChildView(old, with: controller, duration: duration(animated)) {
            controller.didMove(toParent: self)
        }
    }

    /// Pushes the screen that ``makeDestination`` makes for an identifier.
    /// - Parameters:
    ///   - identifier: The screen's identifier.
    ///   - animated: Whether the swap takes ``transitionDuration``.
    /// - Throws: ``ContainmentError/noSuchChild`` when ``makeDestination`` is not set or
    ///   makes nothing for `identifier`, else what ``push(_:animated:)`` throws. Nothing
    ///   changes then.
    public func push(identifier: String, animated: Bool) throws {
        try checkReadyToSwap()
        guard let controller = makeDestination?(identifier) else {
            throw ContainmentError.noSuchChild.with("\(self.identifier) has no screen named \(identifier) to push")
        }
        try push(controller, animated: animated)
    }

    /// Pops the top screen. The root is never popped.
    /// - Parameter animated: Whether the swap takes ``transitionDuration``.
    /// - Returns: The popped screen, or nil when only the root is left or a transition
    ///   would overlap, as for ``push(_:animated:)`` (nothing changes then).
    @discardableResult
    public func pop(animated: Bool) -> Controller? {
        guard stack.count > 1, swapBlocker == nil else { return nil }
        let old = stack.removeLast()
        leave(old, duration: duration(animated))
        return old
    }

    /// Pops every screen above the root. The screens under the top leave at once (their
    /// views are not installed); the top leaves with the swap timeline.
    /// - Parameter animated: Whether the swap takes ``transitionDuration``.
    /// - Returns: The popped screens from the bottom up; empty when only the root is left or a
    ///   transition would overlap, as for ``push(_:animated:)`` (nothing changes then).
    @discardableResult
    public func popToRoot(animated: Bool) -> [Controller] {
        guard stack.count > 1, swapBlocker == nil else { return [] }
        let popped = Array(stack.dropFirst())
        stack = [root]
        for controller in popped.dropLast().reversed() { releaseChild(controller) }
        leave(popped[popped.count - 1], duration: duration(animated))
        return popped
    }

    /// Installs the top screen's view, the only one this container shows.
    public override func viewDidLoad() {
        super.viewDidLoad()
        installCurrentChildView(top)
    }

    /// Makes the top screen's view fill the container.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        top.view.frame = view.bounds
    }

    /// Saves the identifiers of the screens above the root, bottom up.
    /// - Parameter coder: Where to put the state.
    public override func encodeRestorableState(with coder: RestorationCoder) {
        super.encodeRestorableState(with: coder)
        coder.encode(stack.dropFirst().map(\.identifier), forKey: RestorationKey.stack)
    }

    /// Rebuilds the saved stack: screens already in place are kept, the others are made by
    /// ``makeDestination``. Restoring stops at the first screen it cannot make. Before the
    /// tree appears this neither loads views nor sends appearance callbacks.
    /// - Parameter coder: The saved state.
    public override func decodeRestorableState(with coder: RestorationCoder) {
        super.decodeRestorableState(with: coder)
        guard let saved = coder.decodeStrings(forKey: RestorationKey.stack), swapBlocker == nil else { return }
        var kept = 1
        while kept < stack.count, kept - 1 < saved.count, stack[kept].identifier == saved[kept - 1] { kept += 1 }
        let oldTop = top
        for controller in stack[kept...].reversed() { releaseChild(controller) }
        stack.removeSubrange(kept...)
        for identifier in saved.dropFirst(kept - 1) {
            guard let controller = makeDestination?(identifier),
                !stack.contains(where: { $0.identifier == identifier }),
                (try? adoptChild(controller)) != nil
            else { break }
            stack.append(controller)
        }
        guard top !== oldTop else { return }
        if oldTop.parent === self {
            replaceCurrentChildView(oldTop, with: top, duration: .zero) {}
        } else {
            installCurrentChildView(top)
        }
    }

    private enum RestorationKey {
        static let stack = "stack"
    }

    private func duration(_ animated: Bool) -> Duration {
        animated ? transitionDuration : .zero
    }

    /// Swaps from a screen just taken off the stack to the new top, with the removal steps
    /// of the timeline around it: `willMove(toParent: nil)` first, `removeFromParent()` when
    /// the swap finishes. A screen that another container took meanwhile stays there.
    private func leave(_ old: Controller, duration: Duration) {
        guard old.parent === self else { return installCurrentChildView(top) }
        old.willMove(toParent: nil)
        replaceCurrentChildView(old, with: top, duration: duration) {
            old.removeFromParent()
        }
    }
}

extension NavigationController {
    /// `NavigationController` in a tree file: its root, then the screens pushed on it at start,
    /// as its children; `destinations`, the screens `push(identifier:animated:)` makes afresh;
    /// and `transitionMs`.
    public enum Kind: ControllerKind {
        /// `NavigationController`.
        public static let typeName = "NavigationController"
        /// At least one child: its root.
        public static let children = ChildRule(minimum: 1, maximum: nil, roles: "its root")
        /// `destinations`: the screens a push can make, by identifier.
        public static let destinations = NodeKey.nodes("destinations")
        /// `transitionMs` and `destinations`.
        public static let keys = [NodeKey.transitionMs, destinations]

        /// Checks that each destination can be pushed: a stack never holds two screens of one
        /// identifier, and never pops its root.
        /// - Parameters:
        ///   - node: The node.
        ///   - report: Takes each problem with its place.
        public static func validate(_ node: NodeSpec, report: (_ place: [TreeFileError.PathComponent], _ problem: String) -> Void) {
            var identifiers: Set<String> = []
            for (index, destination) in node.nodes(destinations).enumerated() {
                let place: [TreeFileError.PathComponent] = [.key(destinations.name), .index(index)]
                if !identifiers.insert(destination.id).inserted {
                    report(place, "duplicate destination identifier \"\(destination.id)\"")
                } else if destination.id == node.children.first?.id {
                    report(place, "destination identifier \"\(destination.id)\" is the root's: it could never be pushed")
                }
            }
        }

        /// Makes the stack with its root and the screens pushed at start, and the destinations
        /// it makes for a push.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: The root, then the screens pushed at start.
        ///   - build: Builds a destination afresh for each push.
        /// - Returns: The navigation controller.
        /// - Throws: What ``NavigationController/init(identifier:root:title:)`` and
        ///   ``NavigationController/push(_:animated:)`` throw.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            let controller = try NavigationController(identifier: node.id, root: children[0], title: node.title)
            if let duration = node.transitionDuration { controller.transitionDuration = duration }
            for screen in children.dropFirst() { try controller.push(screen, animated: false) }
            let destinations = node.nodes(destinations)
            controller.makeDestination = { identifier in
                destinations.first { $0.id == identifier }.flatMap(build)
            }
            return controller
        }
    }
}
