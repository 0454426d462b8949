/// Helpers shared by the containers that show one child at a time (paginated, navigation,
/// menu): they keep every child they own in ``Controller/children`` and install only the
/// current child's view, so that paths, snapshots and restoration reach every child.
extension Controller {
    /// Whether one of the children is in a `transition(from:to:…)` that has not finished:
    /// containers refuse a second swap then rather than interleave two.
    var isChildTransitionInFlight: Bool {
        children.contains { $0.isTransitioning }
    }

    /// Throws ``ContainmentError/transitionInProgress`` while a child transition is in flight.
    func checkNoChildTransitionInFlight() throws {
        guard !isChildTransitionInFlight else {
            throw ContainmentError.transitionInProgress.with("\(identifier) is still in a transition; try again when it finishes")
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
            guard !controller.identifier.isEmpty, !controller.identifier.contains("/") else {
                throw ContainmentError.invalidArgument.with("\(identifier): \(noun) identifier \"\(controller.identifier)\" must be non-empty and contain no /")
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
    func adoptChild(_ child: Controller) throws {
        try addChild(child)
        child.didMove(toParent: self)
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
    /// Callers check ``isChildTransitionInFlight`` first. Should `transition` still refuse,
    /// the views are swapped directly so that the container never stays half-swapped.
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
        old.loadedView?.removeFromSuperview()
        view.addSubview(new.view)
        completion()
    }
}
