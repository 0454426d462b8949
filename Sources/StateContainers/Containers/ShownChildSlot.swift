/// The one child a single-child container (login state, content state) shows, and the
/// swaps from one such child to the next.
///
/// Every swap follows the swap timeline of the containment contract
/// (`StateContainers.docc/ContainmentContract.md`) through
/// ``Controller/transition(from:to:duration:animations:completion:)``. Two situations
/// need more than that one call, and this type exists so that both containers handle
/// them the same way:
/// - Before the container's view is loaded there are no views to swap, and loading them
///   early would run `viewDidLoad` too soon (restoration runs before the tree appears). The
///   swap is then structural — `willMove`, `addChild`, `removeFromParent` — and the shown
///   child's view is installed, with its `didMove(toParent:)`, when the container's view loads.
/// - A request that arrives while an animated swap runs cannot start a second transition
///   (the arriving child is still transitioning). The newest request is kept and carried
///   out when the running swap finishes, so no request — a bus logout, say — is lost.
@MainActor final class ShownChildSlot {
    private unowned let owner: Controller

    /// How long an animated swap takes on the window's clock.
    var duration: Duration = .zero

    /// The child being shown, or arriving during an animated swap; always a child of the owner.
    private(set) var shown: Controller? {
        didSet { owner.setNeedsSnapshotUpdate() }
    }

    /// The child the owner wants shown; it differs from ``shown`` only while a swap waits
    /// for the running one to finish.
    private(set) var target: Controller?

    /// Whether the swap to ``target`` may animate; restoration swaps without animation.
    private var targetAnimated = true

    /// The child leaving during an animated swap.
    private var leaving: Controller?

    init(owner: Controller) {
        self.owner = owner
    }

    /// Checks that `candidate` can become the shown child, without changing anything.
    /// - Parameter candidate: The controller to show.
    /// - Throws: ``ContainmentError/cycle`` when it is the owner or one of its ancestors,
    ///   ``ContainmentError/invalidArgument`` for an empty identifier or one with `/` and for
    ///   a controller that is presented or presents, ``ContainmentError/transitionInProgress``
    ///   when it is in another container's transition, ``ContainmentError/duplicateIdentifier``
    ///   when another child that stays, or the controller the owner presents, has its identifier.
    func validate(_ candidate: Controller) throws {
        // The shown child is already in place, and the leaving one finishes its transition
        // before it is asked to come back.
        if candidate === shown || candidate === leaving { return }
        guard !owner.isDescendant(of: candidate) else {
            throw ContainmentError.cycle.with("\(owner.identifier) cannot show \(candidate.identifier): it would contain itself")
        }
        try Controller.checkIdentifier(candidate.identifier)
        guard !candidate.isTransitioning else {
            throw ContainmentError.transitionInProgress.with("\(candidate.identifier) is in another transition")
        }
        guard candidate.presenter == nil, candidate.presentation == nil else {
            throw ContainmentError.invalidArgument.with("\(candidate.identifier) is presented or presents: dismiss it first")
        }
        // Old and new child are siblings for the length of a swap, so the new one must not
        // share the identifier of any child that is still there when the swap starts.
        if owner.children.contains(where: { $0 !== leaving && $0.identifier == candidate.identifier })
            || owner.presentation?.presented.identifier == candidate.identifier
        {
            throw ContainmentError.duplicateIdentifier.with("\(owner.identifier) already has a child named \(candidate.identifier)")
        }
    }

    /// Makes `candidate` the shown child: now, or once the running swap finishes. Call
    /// ``validate(_:)`` first; a candidate that became invalid in the meantime is dropped
    /// with a ``ContainmentWarning``.
    /// - Parameters:
    ///   - candidate: The controller to show.
    ///   - animated: Whether the swap takes ``duration``; false swaps at once.
    func show(_ candidate: Controller, animated: Bool = true) {
        target = candidate
        targetAnimated = animated
        settle()
    }

    /// Installs the shown child's view once the owner's view has loaded, completing a swap
    /// or a first `addChild` made while there was no view. Call from `viewDidLoad`.
    func installShownView() {
        guard let shown, shown.parent === owner, shown.loadedView?.superview !== owner.view else { return }
        shown.view.frame = owner.view.bounds
        owner.view.addSubview(shown.view)
        shown.didMove(toParent: owner)
    }

    /// Sizes the installed children's views to the owner's bounds. Call from `viewWillLayoutSubviews`.
    func layout() {
        guard let containerView = owner.loadedView else { return }
        for child in [leaving, shown].compactMap({ $0 }) {
            if let childView = child.loadedView, childView.superview === containerView {
                childView.frame = containerView.bounds
            }
        }
    }

    private func settle() {
        guard leaving == nil, let target, target !== shown else { return }
        do {
            try validate(target)
        } catch {
            // The request was valid when made; the tree changed while a swap was running.
            ContainmentWarning.emit("dropped the swap to \(target.identifier): \(error)", on: owner.identifier)
            self.target = shown
            return
        }
        let old = shown
        old?.willMove(toParent: nil)
        do {
            try owner.addChild(target)
        } catch {
            // Unreachable while validate(_:) checks what addChild(_:) checks; should they
            // ever differ, the old child stays, told that it stays.
            ContainmentWarning.emit("could not add \(target.identifier): \(error)", on: owner.identifier)
            self.target = shown
            old?.didMove(toParent: owner)
            return
        }
        shown = target
        guard let old else {
            if owner.isViewLoaded { installShownView() }
            return
        }
        guard owner.isViewLoaded else {
            old.removeFromParent()
            return
        }
        leaving = old
        target.view.frame = owner.view.bounds
        do {
            // The completion keeps the owner alive, as UIKit's animations keep their views,
            // so that a tree dropped mid-swap still finishes it.
            try owner.transition(from: old, to: target, duration: targetAnimated ? duration : .zero, animations: nil) { [self, owner] _ in
                withExtendedLifetime(owner) { finishSwap(from: old, to: target) }
            }
        } catch {
            // Only a transition someone else started on `old` gets here; the swap still
            // has to end with one installed child, so it ends now, unanimated.
            ContainmentWarning.emit("swapped \(old.identifier) for \(target.identifier) without a transition: \(error)", on: owner.identifier)
            old.loadedView?.removeFromSuperview()
            owner.view.addSubview(target.view)
            finishSwap(from: old, to: target)
        }
    }

    private func finishSwap(from old: Controller, to new: Controller) {
        old.removeFromParent()
        new.didMove(toParent: owner)
        leaving = nil
        settle()
    }
}
