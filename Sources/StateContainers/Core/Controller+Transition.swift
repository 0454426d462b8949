extension Controller {
    /// Swaps two children's views, as `UIViewController.transition(from:to:…)` does.
    ///
    /// At the start `from` gets `viewWillDisappear` and `to` gets `viewWillAppear` (when this
    /// controller is on screen and forwards appearance), and `to.view` is inserted in
    /// `from.view`'s superview (or this controller's view). After `duration` on the window's
    /// clock `from.view` is removed, `from` gets `viewDidDisappear`, `to` gets
    /// `viewDidAppear`, then `completion(true)` runs. A zero duration completes before this
    /// returns. The caller still sends `willMove`/`addChild` before and
    /// `removeFromParent`/`didMove` in the completion.
    /// - Parameters:
    ///   - from: The child whose view leaves.
    ///   - to: The child whose view arrives; set its frame before calling.
    ///   - duration: How long the transition takes on the window's clock.
    ///   - animations: Changes to make at the start of the transition.
    ///   - completion: Called with `true` when the transition finished.
    /// - Throws: ``ContainmentError/notSiblings`` when `from` and `to` are not two different
    ///   children of this controller, ``ContainmentError/transitionInProgress`` when either is
    ///   already in a transition. Nothing changes then.
    public func transition(from: Controller, to: Controller, duration: Duration, animations: (() -> Void)?, completion: ((Bool) -> Void)?) throws {
        guard from !== to, from.parent === self, to.parent === self else {
            throw ContainmentError.notSiblings.with(
                "\(identifier) can only transition between two of its children, not \(from.identifier) and \(to.identifier)")
        }
        guard !from.isTransitioning, !to.isTransitioning else {
            throw ContainmentError.transitionInProgress.with("\(from.isTransitioning ? from.identifier : to.identifier) is already in a transition")
        }
        let container = from.loadedView?.superview ?? view
        // Loaded before `to` begins appearing: viewDidLoad comes first, and the children
        // it installs are among those the appearance is forwarded to.
        let toView = to.view
        let sendsAppearance = shouldAutomaticallyForwardAppearanceMethods && container.isOnScreen
        let animated = duration > .zero
        from.isTransitioning = true
        to.isTransitioning = true
        if sendsAppearance {
            from.beginAppearance(false, animated: animated)
            to.beginAppearance(true, animated: animated)
        }
        container.addSubview(toView)
        animations?()
        let finish: @MainActor () -> Void = {
            from.loadedView?.removeFromSuperview()
            if sendsAppearance {
                from.endAppearanceTransition()
                to.endAppearanceTransition()
            }
            from.isTransitioning = false
            to.isTransitioning = false
            completion?(true)
        }
        if animated {
            (window ?? Window.detached).schedule(after: duration, finish)
        } else {
            finish()
        }
    }
}
