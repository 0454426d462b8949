extension Controller {
    /// Starts an appearance transition: sends `viewWillAppear` or `viewWillDisappear` and
    /// forwards it to the installed children. Calls nest like a counter; a call in the
    /// opposite direction before the matching end cancels the transition and sends the
    /// opposite `will`. A call that does not fit the current appearance logs a
    /// ``ContainmentWarning`` and sends nothing.
    /// - Parameters:
    ///   - isAppearing: Whether the view is appearing (else disappearing).
    ///   - animated: Whether the transition is animated.
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        beginAppearance(isAppearing, animated: animated)
    }

    /// Ends the transition started by the matching ``beginAppearanceTransition(_:animated:)``:
    /// the last one sends `viewDidAppear` or `viewDidDisappear` and forwards it. An end with
    /// no transition in progress logs a ``ContainmentWarning`` and sends nothing.
    public func endAppearanceTransition() {
        guard var transition = appearanceTransition else {
            ContainmentWarning.emit("endAppearanceTransition without a matching begin", on: identifier)
            return
        }
        transition.depth -= 1
        guard transition.depth == 0 else {
            appearanceTransition = transition
            return
        }
        appearanceTransition = nil
        appearance = transition.isAppearing ? .appeared : .disappeared
        inAppearanceCallback {
            if transition.isAppearing { viewDidAppear(transition.animated) } else { viewDidDisappear(transition.animated) }
        }
        for child in transition.forwarded { child.endAppearanceTransition() }
    }

    /// Begins a transition; returns whether it was accepted, so that a parent forwards the
    /// matching end only to children that began.
    @discardableResult
    func beginAppearance(_ isAppearing: Bool, animated: Bool) -> Bool {
        if var transition = appearanceTransition {
            if transition.isAppearing == isAppearing {
                transition.depth += 1
                appearanceTransition = transition
                return true
            }
            transition = AppearanceTransition(depth: 1, isAppearing: isAppearing, animated: animated, forwarded: transition.forwarded)
            appearanceTransition = transition
            sendWill(isAppearing, animated: animated)
            for child in transition.forwarded { child.beginAppearance(isAppearing, animated: animated) }
            return true
        }
        guard appearance == (isAppearing ? .disappeared : .appeared) else {
            ContainmentWarning.emit("unbalanced appearance call: \(isAppearing ? "appearing" : "disappearing") while \(appearance)", on: identifier)
            return false
        }
        appearanceTransition = AppearanceTransition(depth: 1, isAppearing: isAppearing, animated: animated, forwarded: [])
        sendWill(isAppearing, animated: animated)
        // The children are those installed once the controller's own `will` has run, as it
        // may swap them; those it installed meanwhile already joined the transition.
        guard shouldAutomaticallyForwardAppearanceMethods else { return true }
        let joined = appearanceTransition?.forwarded ?? []
        let forwarded =
            installedChildren
            .filter { child in !joined.contains { $0 === child } }
            .filter { $0.beginAppearance(isAppearing, animated: animated) }
        appearanceTransition?.forwarded.insert(contentsOf: forwarded, at: 0)
        return true
    }

    /// The view entered a visible window's hierarchy. Unless a transition already drives
    /// this controller, it appears now, or joins its parent's appearance in progress so
    /// that the parent's `viewDidAppear` still comes before its own.
    func viewEnteredScreen() {
        guard appearanceTransition == nil else { return }
        if let parent {
            guard parent.shouldAutomaticallyForwardAppearanceMethods else { return }
            if let transition = parent.appearanceTransition, transition.isAppearing {
                if beginAppearance(true, animated: transition.animated) {
                    parent.appearanceTransition?.forwarded.append(self)
                }
                return
            }
        }
        if beginAppearance(true, animated: false) { endAppearanceTransition() }
    }

    /// The view left a visible window's hierarchy; the mirror of ``viewEnteredScreen()``.
    /// A controller still appearing is cancelled (it gets `viewWillDisappear`, and the
    /// pending end gives `viewDidDisappear`), as its view is no longer in the window.
    func viewLeftScreen() {
        if let parent, !parent.shouldAutomaticallyForwardAppearanceMethods { return }
        if let transition = appearanceTransition {
            if transition.isAppearing { beginAppearance(false, animated: transition.animated) }
            return
        }
        // A controller that never appeared (its parent's appearance had not reached it yet)
        // has nothing to disappear from.
        guard appearance != .disappeared else { return }
        if let transition = parent?.appearanceTransition, !transition.isAppearing {
            if beginAppearance(false, animated: transition.animated) {
                parent?.appearanceTransition?.forwarded.append(self)
            }
            return
        }
        if beginAppearance(false, animated: false) { endAppearanceTransition() }
    }

    private func sendWill(_ isAppearing: Bool, animated: Bool) {
        appearance = isAppearing ? .appearing : .disappearing
        inAppearanceCallback {
            if isAppearing { viewWillAppear(animated) } else { viewWillDisappear(animated) }
        }
    }

    private func inAppearanceCallback(_ body: () -> Void) {
        callbackDepth += 1
        body()
        callbackDepth -= 1
    }
}
