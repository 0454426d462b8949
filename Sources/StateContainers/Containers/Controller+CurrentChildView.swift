import AppStateCore

/// Helpers shared by the containers that show one child at a time (paginated, navigation,
/// menu): they keep every child they own in ``Controller/children`` and install only the
/// current child's view, so that paths, snapshots and restoration reach every child.
extension Controller {
    /// Why swapping the shown child now would interleave two transitions, or nil when it is
    /// safe. A swap waits while a descendant is still in a `transition(from:to:…)`, and while
    /// this controller is on screen without having appeared: its parent is swapping it in or
    /// out, or has not forwarded its appearance yet. Appearance callbacks of overlapping
    /// transitions would otherwise be unbalanced, which UIKit only logs.
    var swapBlocker: String? {
        var busy: Controller?
        for child in children where busy == nil {
            child.forEachInSubtree { if busy == nil, $0.isTransitioning { busy = $0 } }
        }
        if let busy { return "\(busy.identifier) is still in a transition" }
        if loadedView?.isOnScreen == true, appearance != .appeared { return "\(identifier) is \(appearance.rawValue), not appeared" }
        return nil
    }

    /// Throws unless ``swapBlocker`` is nil.
    /// - Throws: ``ContainmentError/transitionInProgress`` naming what to wait for.
    func checkReadyToSwap() throws {
        if let swapBlocker {
            throw ContainmentError.transitionInProgress.with("\(identifier) cannot swap its child now: \(swapBlocker); try again when it finishes")
        }
    }

    /// Checks a list of controllers about to become children, before anything changes, so
    /// that a container's initialiser or setter throws instead of leaving a half-built list.
    /// - Parameters:
    ///   - controllers: The incoming children.
    ///   - noun: What the container calls them in messages ("page", "menu item", …).
    /// - Throws: ``ContainmentError/invalidArgument`` for an empty identifier or one with `/`,
    ///   ``ContainmentError/duplicateIdentifier`` when two share an identifier,
    ///   ``ContainmentError/cycle`` when one is this controller or an ancestor of it.
    func validateIncomingChildren(_ controllers: [Controller], noun: String) throws {
        var seen = Set<String>()
        for controller in controllers {
            guard controller.identifier.isPathSegment else {
                throw ContainmentError.invalidArgument.with(
                    "\(identifier): \(noun) identifier \"\(controller.identifier)\" must be non-empty and contain no /")
            }
            guard seen.insert(controller.identifier).inserted else {
                throw ContainmentError.duplicateIdentifier.with("\(identifier) has two \(noun)s named \(controller.identifier)")
            }
            guard !isDescendant(of: controller) else {
                throw ContainmentError.cycle.with("\(identifier) cannot contain \(controller.identifier): it would contain itself")
            }
        }
    }

    /// Adds a child and completes its move at once. Used at creation, before the view
    /// exists: the child's view is installed later, when this controller's view loads,
    /// because loading it now would run its `viewDidLoad` early.
    /// - Parameters:
    ///   - child: The child.
    ///   - siblingsChecked: Whether the caller has made sure that no child has its identifier.
    func adoptChild(_ child: Controller, siblingsChecked: Bool = false) throws {
        try addChild(child, siblingsChecked: siblingsChecked)
        child.didMove(toParent: self)
    }

    /// Checks the children a container is created with (``validateIncomingChildren(_:noun:)``),
    /// then adopts them in order (``adoptChild(_:siblingsChecked:)``).
    /// - Parameters:
    ///   - controllers: The children.
    ///   - noun: What the container calls them in messages.
    /// - Throws: What ``validateIncomingChildren(_:noun:)`` and ``addChild(_:)`` throw.
    func adoptChildren(_ controllers: [Controller], noun: String) throws {
        try validateIncomingChildren(controllers, noun: noun)
        // Their identifiers were just found unique: comparing each with those adopted before
        // it would make a container of n children cost n² to create.
        let siblingsChecked = children.isEmpty
        for child in controllers { try adoptChild(child, siblingsChecked: siblingsChecked) }
    }

    /// Removes a child with `unembed()`, unless another container took it meanwhile: a
    /// container never removes a controller from someone else.
    func releaseChild(_ child: Controller) {
        guard child.parent === self else { return }
        child.unembed()
    }

    /// Installs a child's view so that it fills this controller's view. Does nothing while
    /// this controller's view is not loaded: it installs its current child when it loads.
    func installCurrentChildView(_ child: Controller) {
        guard let view = loadedView else { return }
        child.view.frame = view.bounds
        view.addSubview(child.view)
    }

    /// Replaces the installed view of `old` with that of `new`, both children of this
    /// controller, then runs `completion`.
    ///
    /// On screen this is `transition(from:to:duration:…)`, which sends the appearance
    /// callbacks of the swap timeline and, with a positive duration, completes on the
    /// window's clock. Off screen the views are swapped at once with no callbacks, and with
    /// this controller's view not loaded only `completion` runs: restoring state before the
    /// tree appears must neither load views nor send appearance callbacks.
    ///
    /// Callers check ``swapBlocker`` first. Should `transition` still refuse
    /// (a child taken by another container behind this one's back), the views are swapped
    /// directly, touching only views that belong here, so nothing is left half-swapped.
    func replaceCurrentChildView(
        _ old: Controller,
        with new: Controller,
        duration: Duration,
        completion: @escaping @MainActor () -> Void
    ) {
        guard let view = loadedView else {
            completion()
            return
        }
        new.view.frame = view.bounds
        if view.isOnScreen {
            do {
                try transition(from: old, to: new, duration: duration, animations: nil) { _ in completion() }
                return
            } catch {
                ContainmentWarning.emit("swapped views without a transition: \(error)", on: identifier)
            }
        }
        if old.loadedView?.superview === view { old.view.removeFromSuperview() }
        if new.parent === self { view.addSubview(new.view) }
        completion()
    }
}
