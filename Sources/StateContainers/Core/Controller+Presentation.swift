extension Controller {
    /// The controller that this controller's presentation context presents, as
    /// `UIViewController.presentedViewController`: for a controller in a window's tree, what
    /// the root presents; for a presented controller and its descendants, what that
    /// presented controller presents in turn. Set when a presentation starts and cleared when
    /// its dismissal finishes.
    public var presentedViewController: Controller? { presentationContext.presentation?.presented }

    /// The controller that presented this controller or the presented controller it belongs
    /// to, as `UIViewController.presentingViewController`: the presentation context that
    /// carried the presentation out, not necessarily the controller `present` was called on.
    public var presentingViewController: Controller? { presentationContext.presenter }

    /// Presents a controller modally over the screen, as `UIViewController.present` does.
    ///
    /// Presentation is not containment: `controller` gets no `willMove(toParent:)` or
    /// `didMove(toParent:)` and no parent. It is carried out by this controller's presentation
    /// context, the top of its containment tree (the window's root, or the presented
    /// controller it belongs to), as UIKit does without `definesPresentationContext`. When
    /// the context is on screen, the swap timeline's appearance steps run: `controller`'s
    /// view loads, the context and its visible descendants get `viewWillDisappear` (for
    /// ``ModalPresentationStyle/fullScreen`` only) and `controller` gets `viewWillAppear`;
    /// after ``modalTransitionDuration`` on the window's clock (at once unless `animated`),
    /// a full-screen presentation takes the context's view out of the window, the context's
    /// side gets `viewDidDisappear`, `controller` gets `viewDidAppear`, then `completion`
    /// runs. With ``ModalPresentationStyle/overFullScreen`` the context stays on screen
    /// underneath, with no callback. A context in no window presents without views or
    /// callbacks: the window installs them when the tree joins it.
    /// - Parameters:
    ///   - controller: The controller to present, with its ``modalPresentationStyle``; its
    ///     path is the context's path followed by its identifier.
    ///   - animated: Whether the transition takes `controller`'s ``modalTransitionDuration``.
    ///   - completion: Runs once the presentation finished.
    /// - Throws: ``ContainmentError/alreadyPresenting`` when the context presents a controller
    ///   already; ``ContainmentError/transitionInProgress`` while the context's presentation is
    ///   being dismissed, the context itself is being presented or dismissed, or a transition
    ///   runs in its tree; ``ContainmentError/cycle`` when `controller` is the context or
    ///   presents it; ``ContainmentError/invalidArgument`` for an identifier that is empty or
    ///   has `/`, or a controller that has a parent, is a window's root, is presented or
    ///   presents; ``ContainmentError/duplicateIdentifier`` when a child of the context has its
    ///   identifier. Nothing changes then.
    public func present(_ controller: Controller, animated: Bool, completion: (() -> Void)? = nil) throws {
        let context = presentationContext
        try context.checkPresentable(controller)
        context.startPresentation(of: controller, animated: animated, completion: completion)
    }

    /// Presents the controller that the presentation context's ``makePresentedController``
    /// makes for an identifier: what a tree's `presentations` list.
    /// - Parameters:
    ///   - identifier: The identifier of the controller to present.
    ///   - style: How it covers the context; nil keeps its ``modalPresentationStyle``.
    ///   - animated: Whether the transition takes its ``modalTransitionDuration``.
    ///   - completion: Runs once the presentation finished.
    /// - Throws: ``ContainmentError/noSuchChild`` when the context has no
    ///   ``makePresentedController`` or it makes nothing for `identifier`, else what
    ///   ``present(_:animated:completion:)`` throws. Nothing changes then.
    public func present(identifier: String, style: ModalPresentationStyle? = nil, animated: Bool, completion: (() -> Void)? = nil) throws {
        let context = presentationContext
        guard let controller = context.makePresentedController?(identifier) else {
            throw ContainmentError.noSuchChild.with("\(context.identifier) has no controller named \(identifier) to present")
        }
        if let style { controller.modalPresentationStyle = style }
        try context.present(controller, animated: animated, completion: completion)
    }

    /// Dismisses a presented controller, as `UIViewController.dismiss` does: the one this
    /// controller's presentation context presents, else the presented controller this
    /// controller belongs to. Controllers presented over the dismissed one go with it.
    ///
    /// On screen it reverses the presentation: the presented controller (and those presented
    /// over it that are on screen) get `viewWillDisappear` and, when it covered it, the
    /// presenting controller's view returns to the window and gets `viewWillAppear`; after
    /// the presented controller's ``modalTransitionDuration`` (at once unless `animated`) the
    /// leaving views are out of the window, the leaving controllers get `viewDidDisappear`,
    /// the presenting one `viewDidAppear`, and ``presentedViewController`` becomes nil.
    /// A dismissal asked for while a transition runs in either tree (the presentation's own,
    /// above all) starts when they finish, so that no request is lost.
    /// - Parameters:
    ///   - animated: Whether the transition takes the presented controller's ``modalTransitionDuration``.
    ///   - completion: Runs once the dismissal finished; never when nothing is presented.
    /// - Returns: Whether this call dismisses a controller, now or once the running
    ///   transitions finish; false when nothing is presented, or its dismissal was already
    ///   asked for (its completion then runs with that dismissal's).
    @discardableResult
    public func dismiss(animated: Bool, completion: (() -> Void)? = nil) -> Bool {
        let context = presentationContext
        let holder = context.presentation != nil ? context : context.presenter
        return holder?.requestDismissal(animated: animated, completion: completion) ?? false
    }

    /// The top of this controller's containment tree: the controller that carries out the
    /// presentations asked of it (a window's root, or a presented controller).
    var presentationContext: Controller {
        var controller = self
        while let next = controller.parent ?? controller.keeper { controller = next }
        return controller
    }

    /// This presentation context and the controllers presented over it, each by the one
    /// before: the layers of a window.
    var presentationLayers: [Controller] {
        var layers = [self]
        while let next = layers[layers.count - 1].presentation?.presented { layers.append(next) }
        return layers
    }

    /// The configured children and, for a context that presents, the presented controller
    /// last: what snapshots list, paths address and restoration saves.
    var treeChildren: [Controller] {
        guard let presentation else { return configuredChildren }
        return configuredChildren + [presentation.presented]
    }

    /// Starts the dismissals that waited for running transitions, now that one finished:
    /// the lowest waiting one in this context's layers whose trees are still.
    func settlePendingDismissals() {
        for layer in presentationLayers {
            guard let presentation = layer.presentation, let animated = presentation.pendingDismissal else { continue }
            guard layer.dismissalBlocker(presentation) == nil else { return }
            presentation.pendingDismissal = nil
            layer.startDismissal(presentation, animated: animated)
            return
        }
    }

    /// Throws unless this presentation context can present `controller` now.
    private func checkPresentable(_ controller: Controller) throws {
        if let presentation {
            guard presentation.phase == .dismissing else {
                throw ContainmentError.alreadyPresenting.with(
                    "\(identifier) already presents \(presentation.presented.identifier); dismiss it before presenting \(controller.identifier)")
            }
            throw ContainmentError.transitionInProgress.with(
                "\(identifier) is dismissing \(presentation.presented.identifier); try again when it finishes")
        }
        if let own = presenter?.presentation, own.phase != .presented {
            throw ContainmentError.transitionInProgress.with("\(identifier) is being presented or dismissed; try again when it finishes")
        }
        try Controller.checkIdentifier(controller.identifier)
        var presenting: Controller? = self
        while let current = presenting {
            guard current !== controller else {
                throw ContainmentError.cycle.with("\(identifier) cannot present \(controller.identifier): it would present itself")
            }
            presenting = current.presenter
        }
        let problem =
            controller.parent != nil || controller.keeper != nil
            ? "is a container's child"
            : controller.rootWindow != nil
                ? "is a window's root"
                : controller.presenter != nil ? "is presented already" : controller.presentation != nil ? "presents a controller" : nil
        if let problem {
            throw ContainmentError.invalidArgument.with("\(identifier) cannot present \(controller.identifier): it \(problem)")
        }
        guard !configuredChildren.contains(where: { $0.identifier == controller.identifier }) else {
            throw ContainmentError.duplicateIdentifier.with("\(identifier) already has a child named \(controller.identifier)")
        }
        if let swapBlocker {
            throw ContainmentError.transitionInProgress.with("\(identifier) cannot present now: \(swapBlocker); try again when it finishes")
        }
    }

    private func startPresentation(of controller: Controller, animated: Bool, completion: (() -> Void)?) {
        let presentation = Presentation(presented: controller, style: controller.modalPresentationStyle)
        self.presentation = presentation
        controller.presenter = self
        controller.windowChanged(from: nil)
        guard let window, let presentingView = loadedView, presentingView.hostingWindow === window else {
            // No views to move: the window installs them when the tree joins it.
            presentation.phase = .presented
            completion?()
            return
        }
        let onScreen = window.isVisible
        let duration = animated && onScreen ? controller.modalTransitionDuration : .zero
        let isAnimated = duration > .zero
        let leaves = presentation.style == .fullScreen
        // Loaded before the appearance begins: viewDidLoad comes first, and the children it
        // installs are among those the appearance is forwarded to.
        let view = controller.view
        view.removeFromSuperview()
        view.frame = window.bounds
        controller.isTransitioning = true
        if onScreen {
            if leaves { beginAppearance(false, animated: isAnimated) }
            controller.beginAppearance(true, animated: isAnimated)
        }
        view.hostingWindow = window
        let finish: @MainActor () -> Void = { [self] in
            if leaves { presentingView.hostingWindow = nil }
            if onScreen {
                if leaves { endAppearanceTransition() }
                controller.endAppearanceTransition()
            }
            controller.isTransitioning = false
            presentation.phase = .presented
            completion?()
            window.rootController?.settlePendingDismissals()
        }
        if isAnimated {
            window.schedule(after: duration, finish)
        } else {
            finish()
        }
    }

    /// Dismisses now what this context presents, or once running transitions finish.
    private func requestDismissal(animated: Bool, completion: (() -> Void)?) -> Bool {
        guard let presentation else { return false }
        if let completion { presentation.dismissalCompletions.append(completion) }
        guard !presentation.isEnding else { return false }
        if dismissalBlocker(presentation) != nil {
            presentation.pendingDismissal = animated
        } else {
            startDismissal(presentation, animated: animated)
        }
        return true
    }

    /// What a dismissal of `presentation` waits for, or nil when it can start: the
    /// presentation's own transition, and on screen any transition in the presented tree or,
    /// when the presenting view returns, in this one, whose appearance callbacks would
    /// otherwise interleave.
    private func dismissalBlocker(_ presentation: Presentation) -> Controller? {
        guard presentation.phase == .presented else { return presentation.presented }
        guard let window, window.isVisible else { return nil }
        var busy: Controller?
        for layer in presentation.presented.presentationLayers {
            layer.forEachInSubtree { if busy == nil, $0.isTransitioning { busy = $0 } }
        }
        if busy == nil, loadedView?.hostingWindow !== window {
            for child in children { child.forEachInSubtree { if busy == nil, $0.isTransitioning { busy = $0 } } }
        }
        return busy
    }

    private func startDismissal(_ presentation: Presentation, animated: Bool) {
        presentation.phase = .dismissing
        guard let window else {
            finishDismissal(presentation)
            return
        }
        let presented = presentation.presented
        let leaving = presented.presentationLayers.filter { $0.loadedView?.hostingWindow === window }
        let returning = loadedView?.hostingWindow !== window
        let onScreen = window.isVisible
        let duration = animated && onScreen ? presented.modalTransitionDuration : .zero
        let isAnimated = duration > .zero
        presented.isTransitioning = true
        if returning {
            let view = self.view
            view.removeFromSuperview()
            view.frame = window.bounds
            view.hostingWindow = window
        }
        if onScreen {
            for layer in leaving { layer.beginAppearance(false, animated: isAnimated) }
            if returning { beginAppearance(true, animated: isAnimated) }
        }
        let finish: @MainActor () -> Void = { [self] in
            for layer in leaving { layer.loadedView?.hostingWindow = nil }
            if onScreen {
                for layer in leaving { layer.endAppearanceTransition() }
                if returning { endAppearanceTransition() }
            }
            presented.isTransitioning = false
            finishDismissal(presentation)
        }
        if isAnimated {
            window.schedule(after: duration, finish)
        } else {
            finish()
        }
    }

    /// Ends `presentation` and those over it, the top one first, then runs the completions
    /// their callers gave, the lowest presentation's first.
    private func finishDismissal(_ presentation: Presentation) {
        let layers = presentation.presented.presentationLayers
        let completions = presentation.dismissalCompletions + layers.flatMap { $0.presentation?.dismissalCompletions ?? [] }
        for layer in layers.reversed() {
            let oldWindow = layer.window
            layer.presenter?.presentation = nil
            layer.presenter = nil
            layer.windowChanged(from: oldWindow)
        }
        for completion in completions { completion() }
    }
}
