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
    /// the old root disappear and the new one appear.
    public var rootController: Controller? {
        didSet {
            guard rootController !== oldValue else { return }
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

    /// Shows the window: the root's view is installed and appearance callbacks flow down the tree.
    public func makeVisible() {
        guard !isVisible else { return }
        isVisible = true
        rootController?.viewEnteredScreen()
    }

    /// Gives the window a new size: `viewWillTransition(to:)` flows down the tree and each
    /// container lays out its children. A size with a negative or non-finite side is ignored
    /// with a ``ContainmentWarning``.
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
    }

    func schedule(after duration: Duration, _ action: @escaping @MainActor () -> Void) {
        scheduler(duration) { [weak self] in
            action()
            self?.afterDeferredChange?()
        }
    }

    private func attach(_ root: Controller) {
        root.unembed()
        root.rootWindow?.rootController = nil
        let oldWindow = root.window
        root.rootWindow = self
        // Announced before the view loads: children that viewDidLoad embeds then join an
        // announced tree and are told once, after their parent.
        root.windowChanged(from: oldWindow)
        let view = root.view
        view.removeFromSuperview()
        view.hostingWindow = self
        view.frame = bounds
        if isVisible { root.viewEnteredScreen() }
    }

    private func detach(_ root: Controller) {
        if isVisible { root.viewLeftScreen() }
        root.loadedView?.hostingWindow = nil
        root.rootWindow = nil
        root.windowChanged(from: self)
    }
}
