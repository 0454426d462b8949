import AppStateCore

/// A headless layout node: the part of a `UIView` that decides what is on screen and where.
///
/// A view is on screen when it is in a visible ``Window``. Frames are in the superview's
/// coordinate space; `bounds.origin` is the scroll position, as in `UIScrollView`.
@MainActor public final class View {
    /// The rectangle in the superview's coordinates. Changing its size lays the view out again.
    public var frame: Rect {
        didSet {
            guard frame != oldValue else { return }
            // Snapshots give frames in window coordinates: the views inside move too.
            setNeedsSnapshotUpdateOfOwners()
            guard frame.size != oldValue.size else { return }
            bounds.size = frame.size
            layoutSubviews()
        }
    }

    /// The rectangle in the view's own coordinates; its origin is ``contentOffset``.
    public var bounds: Rect {
        didSet {
            // Scrolling moves the views inside in window coordinates.
            if bounds != oldValue { setNeedsSnapshotUpdateOfOwners() }
        }
    }

    /// The visible part's origin in the content, as `UIScrollView.contentOffset`.
    public var contentOffset: Point {
        get { bounds.origin }
        set { bounds.origin = newValue }
    }

    /// Room kept clear of the content on each edge, as `UIScrollView.contentInset`.
    public var contentInset: Insets = .zero {
        didSet { owner?.setNeedsSnapshotUpdate() }
    }

    /// The views this one contains, back to front.
    public private(set) var subviews: [View] = []

    /// The view that contains this one.
    public private(set) weak var superview: View?

    /// The controller whose ``Controller/view`` this is; appearance follows the view.
    weak var owner: Controller?

    /// Set on the root view of a window's hierarchy only.
    weak var hostingWindow: Window? {
        didSet { setNeedsSnapshotUpdateOfOwners() }
    }

    /// Creates a view.
    /// - Parameter frame: The initial frame in the superview's coordinates.
    public init(frame: Rect = .zero) {
        self.frame = frame
        self.bounds = Rect(origin: .zero, size: frame.size)
    }

    /// The window the view is in, if any.
    public var window: Window? {
        var view = self
        while let next = view.superview { view = next }
        return view.hostingWindow
    }

    /// Whether the view is in a window that is visible.
    public var isOnScreen: Bool { window?.isVisible ?? false }

    /// Whether `view` is this view or one of its ancestors.
    /// - Parameter view: The candidate ancestor.
    public func isDescendant(of view: View) -> Bool {
        var candidate: View? = self
        while let current = candidate {
            if current === view { return true }
            candidate = current.superview
        }
        return false
    }

    /// Adds a view at the front. If this view is on screen, the controller owning `view`
    /// appears before this returns.
    /// - Parameter view: The view to add; it leaves its current superview first.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts a view at an index of ``subviews`` (clamped to the valid range).
    /// - Parameters:
    ///   - view: The view to insert; it leaves its current superview first.
    ///   - index: Its place among the subviews, back to front.
    public func insertSubview(_ view: View, at index: Int) {
        guard !isDescendant(of: view) else {
            ContainmentWarning.emit("a view cannot be added to itself or to one of its descendants", on: owner?.identifier)
            return
        }
        if view.superview === self, let current = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: current)
            subviews.insert(view, at: min(max(index, 0), subviews.count))
            return
        }
        view.removeFromSuperview()
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        view.setNeedsSnapshotUpdateOfOwners()
        if isOnScreen { view.forEachOwnedRoot { $0.viewEnteredScreen() } }
    }

    /// Inserts a view just behind a sibling, or at the front when `sibling` is not a subview.
    /// - Parameters:
    ///   - view: The view to insert.
    ///   - sibling: The subview it goes behind.
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        insertSubview(view, at: subviews.firstIndex { $0 === sibling } ?? subviews.count)
    }

    /// Removes the view from its superview. If it was on screen, the controller owning it
    /// disappears before this returns.
    public func removeFromSuperview() {
        guard let superview else { return }
        let wasOnScreen = isOnScreen
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
        setNeedsSnapshotUpdateOfOwners()
        if wasOnScreen { forEachOwnedRoot { $0.viewLeftScreen() } }
    }

    /// Converts a rectangle from another view's coordinates (or the window's, for nil) into this view's.
    /// - Parameters:
    ///   - rect: The rectangle in `view`'s coordinates.
    ///   - view: The view whose coordinates `rect` is in; nil for the window.
    public func convert(_ rect: Rect, from view: View?) -> Rect {
        let source = view?.originInWindow ?? .zero
        let target = originInWindow
        return rect.offsetBy(dx: source.x - target.x, dy: source.y - target.y)
    }

    /// Converts a rectangle from this view's coordinates into another view's (or the window's, for nil).
    /// - Parameters:
    ///   - rect: The rectangle in this view's coordinates.
    ///   - view: The view whose coordinates to convert to; nil for the window.
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        guard let view else {
            // One walk up to the window: every snapshot converts every view's bounds so.
            let origin = originInWindow
            return rect.offsetBy(dx: origin.x, dy: origin.y)
        }
        return view.convert(rect, from: self)
    }

    /// Lays out the subviews now: the owning controller's `viewWillLayoutSubviews` and
    /// `viewDidLayoutSubviews` run. There is no run loop to defer layout to.
    public func layoutSubviews() {
        owner?.viewWillLayoutSubviews()
        owner?.viewDidLayoutSubviews()
    }

    /// Marks the controllers owning this view and the views inside it: their frames in window
    /// coordinates, or whether they are on screen, changed with this view.
    func setNeedsSnapshotUpdateOfOwners() {
        owner?.setNeedsSnapshotUpdate()
        for subview in subviews { subview.setNeedsSnapshotUpdateOfOwners() }
    }

    /// Where this view's own coordinate origin lies in window coordinates.
    private var originInWindow: Point {
        var x = -bounds.origin.x
        var y = -bounds.origin.y
        var view = self
        while let superview = view.superview {
            x += view.frame.origin.x - superview.bounds.origin.x
            y += view.frame.origin.y - superview.bounds.origin.y
            view = superview
        }
        x += view.frame.origin.x
        y += view.frame.origin.y
        return Point(x: x, y: y)
    }

    /// Visits the controllers owning the topmost owned views in this subtree: those
    /// controllers forward appearance to their own children themselves.
    private func forEachOwnedRoot(_ body: (Controller) -> Void) {
        if let owner {
            body(owner)
            return
        }
        for subview in subviews { subview.forEachOwnedRoot(body) }
    }
}
