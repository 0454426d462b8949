import AppStateCore

/// A screen of a given size hosting one tree of controllers: the root of "on screen".
@MainActor public final class Window {
    /// The size of the screen.
    public private(set) var size: Size

    /// The bus the tree's containers observe.
    public let bus: NotificationBus

    /// Whether ``makeVisible()`` was called: views in a visible window are on screen.
    public private(set) var isVisible = false

    /// The controller whose view fills the window. Replacing it on a visible window makes
    /// the old root disappear and the new one appear, with the controllers presented over
    /// them. A presented controller cannot be a root: setting one keeps the old root and
    /// reports a ``ContainmentWarning``.
    public var rootController: Controller? {
        didSet {
            guard rootController !== oldValue else { return }
            if let rootController, rootController.presenter != nil {
                ContainmentWarning.emit("a presented controller cannot be a window's root; dismiss it first", on: rootController.identifier)
                // Observers do not run for an assignment in their own didSet.
                self.rootController = oldValue
                return
            }
            if let oldValue { detach(oldValue) }
            if let rootController { attach(rootController) }
        }
    }

    /// Called after the deferred steps of an animated transition ran on the window's clock,
    /// so that whoever publishes the tree's state elsewhere knows it changed.
    public var afterDeferredChange: (@MainActor () -> Void)?

    private let scheduler: @MainActor (Duration, @escaping @MainActor () -> Void) -> Void

    /// A window for transitions of controllers that belong to no window.
    static let detached = Window(size: .zero)

    /// Creates a window.
    /// - Parameters:
    ///   - size: The size of the screen.
    ///   - bus: The bus the tree's containers observe.
    ///   - clock: The clock animated transitions take their duration on: a ``SchedulingClock``
    ///     times them itself (tests pass a ``ManualClock``); on any other clock they wait in a
    ///     main-actor task.
    public init(size: Size, bus: NotificationBus = NotificationBus(), clock: some Clock<Duration> = ContinuousClock()) {
        self.size = size
        self.bus = bus
        if let scheduling = clock as? any SchedulingClock {
            scheduler = { duration, action in scheduling.schedule(after: duration, action) }
        } else {
            scheduler = { duration, action in
                Task { @MainActor in
                    try? await clock.sleep(for: duration)
                    action()
                }
            }
        }
    }

    /// The window's rectangle in its own coordinates.
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// Shows the window: appearance callbacks flow down the tree from the root, then from each
    /// controller presented over it whose view is in the window, in the order they were presented.
    public func makeVisible() {
        guard !isVisible else { return }
        isVisible = true
        for layer in installedLayers {
            layer.loadedView?.setNeedsSnapshotUpdateOfOwners()
            layer.viewEnteredScreen()
        }
    }

    /// Gives the window a new size: `viewWillTransition(to:)` flows down the tree, then down
    /// each presented controller's, and each container lays out its children. A size with a
    /// negative or non-finite side is ignored with a ``ContainmentWarning``.
    /// - Parameter size: The new size.
    public func resize(to size: Size) {
        guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else {
            ContainmentWarning.emit("ignored window size \(size.width)x\(size.height)")
            return
        }
        guard size != self.size else { return }
        self.size = size
        guard let root = rootController else { return }
        root.viewWillTransition(to: size)
        root.view.frame = bounds
        for presented in root.presentationLayers.dropFirst() {
            presented.viewWillTransition(to: size)
            presented.loadedView?.frame = bounds
        }
    }

    /// Runs `action` after `duration` on the window's clock; then the dismissals that waited
    /// for a transition to finish may start.
    func schedule(after duration: Duration, _ action: @escaping @MainActor () -> Void) {
        scheduler(duration) { [weak self] in
            action()
            self?.rootController?.settlePendingDismissals()
            self?.afterDeferredChange?()
        }
    }

    /// The root and the controllers presented over it whose views are in the window, bottom first.
    private var installedLayers: [Controller] {
        (rootController?.presentationLayers ?? []).filter { $0.loadedView?.hostingWindow === self }
    }

    private func attach(_ root: Controller) {
        root.unembed()
        root.rootWindow?.rootController = nil
        let oldWindow = root.window
        root.rootWindow = self
        // Announced before the view loads: children that viewDidLoad embeds then join an
        // announced tree and are told once, after their parent.
        root.windowChanged(from: oldWindow)
        // The root's view, and each presented controller's, go in the window unless a
        // full-screen presentation over it has finished. The root's view loads either way, as
        // a window loads its root's; a covered presented controller's loads when it shows.
        for layer in root.presentationLayers {
            let covered = layer.presentation?.coversPresenting == true
            guard let view = covered && layer !== root ? layer.loadedView : layer.view else { continue }
            view.removeFromSuperview()
            if !covered { view.hostingWindow = self }
            view.frame = bounds
        }
        if isVisible {
            for layer in installedLayers { layer.viewEnteredScreen() }
        }
    }

    private func detach(_ root: Controller) {
        let layers = root.presentationLayers
        if isVisible {
            for layer in layers where layer.loadedView?.hostingWindow === self { layer.viewLeftScreen() }
        }
        for layer in layers { layer.loadedView?.hostingWindow = nil }
        root.rootWindow = nil
        root.windowChanged(from: self)
    }
}
