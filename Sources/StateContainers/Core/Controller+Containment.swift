extension Controller {
    /// Adds a child: removes it from any other parent (or from the window it is the root
    /// of) first, then sends
    /// `willMove(toParent: self)` and appends it to ``children``. The caller installs the
    /// child's view and then calls `didMove(toParent: self)`.
    /// - Parameter child: The controller to add.
    /// - Throws: ``ContainmentError/cycle`` when `child` is this controller or one of its
    ///   ancestors, ``ContainmentError/duplicateIdentifier`` when a sibling or the controller
    ///   this one presents already has its identifier, ``ContainmentError/invalidArgument`` for
    ///   an empty identifier or one with `/`, or a child that is presented or presents (a
    ///   presentation is not containment: dismiss it first).
    public func addChild(_ child: Controller) throws {
        try addChild(child, siblingsChecked: false)
    }

    /// ``addChild(_:)``, which looks for a child of the same identifier unless the caller has
    /// made sure that there is none.
    func addChild(_ child: Controller, siblingsChecked: Bool) throws {
        if child.parent === self { return }
        guard !isDescendant(of: child) else {
            throw ContainmentError.cycle.with("cannot add \(child.identifier) to \(identifier): it would contain itself")
        }
        try Self.checkIdentifier(child.identifier)
        guard child.presenter == nil, child.presentation == nil else {
            throw ContainmentError.invalidArgument.with(
                "\(child.identifier) \(child.presenter != nil ? "is presented" : "presents a controller"): dismiss it before adding it to \(identifier)"
            )
        }
        guard siblingsChecked || self.child(named: child.identifier) == nil, presentation?.presented.identifier != child.identifier else {
            throw ContainmentError.duplicateIdentifier.with("\(identifier) already has a child named \(child.identifier)")
        }
        if child.parent != nil {
            child.unembed()
        }
        // A window's root leaves that window first, as a child leaves its old parent:
        // otherwise it would be both the window's root and someone's child.
        child.rootWindow?.rootController = nil
        let oldWindow = child.window
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
        child.windowChanged(from: oldWindow)
    }

    /// Removes the controller from its parent, then sends `didMove(toParent: nil)`. The
    /// caller sends `willMove(toParent: nil)` first and removes the view. Does nothing
    /// without a parent.
    public func removeFromParent() {
        guard let parent else { return }
        let oldWindow = window
        parent.children.removeAll { $0 === self }
        self.parent = nil
        windowChanged(from: oldWindow)
        didMove(toParent: nil)
    }

    /// Adds a child and installs its view, in UIKit's order: `addChild`, `addSubview`, `didMove(toParent:)`.
    /// - Parameters:
    ///   - child: The controller to embed.
    ///   - container: The view to install the child's view in; defaults to this controller's view.
    /// - Throws: What ``addChild(_:)`` throws; nothing changes then.
    public func embed(_ child: Controller, in container: View? = nil) throws {
        try addChild(child)
        (container ?? view).addSubview(child.view)
        child.didMove(toParent: self)
    }

    /// Removes the controller from its parent in UIKit's order: `willMove(toParent: nil)`,
    /// `removeFromSuperview`, `removeFromParent`. Does nothing without a parent.
    public func unembed() {
        guard parent != nil else { return }
        willMove(toParent: nil)
        loadedView?.removeFromSuperview()
        removeFromParent()
    }

    /// Whether `ancestor` is this controller or one of its ancestors.
    /// - Parameter ancestor: The candidate ancestor.
    public func isDescendant(of ancestor: Controller) -> Bool {
        var candidate: Controller? = self
        while let current = candidate {
            if current === ancestor { return true }
            candidate = current.parent
        }
        return false
    }

    /// Throws unless `identifier` can name a controller: it is a segment of the paths that
    /// name controllers.
    /// - Parameter identifier: The identifier.
    /// - Throws: ``ContainmentError/invalidArgument`` for an empty identifier or one with `/`.
    static func checkIdentifier(_ identifier: String) throws(ContainmentError) {
        guard identifier.isPathSegment else {
            throw ContainmentError.invalidArgument.with("identifier \"\(identifier)\" must be non-empty and contain no /")
        }
    }

    /// The child with the given identifier.
    /// - Parameter identifier: The child's identifier.
    public func child(named identifier: String) -> Controller? {
        // A loop, not `first(where:)`: a closure reading a main-actor property is checked to
        // run on the main actor at each call, and this runs for each child added.
        for child in children where child.identifier == identifier { return child }
        return nil
    }

    /// Tells this controller, its descendants and the controllers presented over them that
    /// the tree's window changed, if it did.
    func windowChanged(from oldWindow: Window?) {
        guard window !== oldWindow else { return }
        forEachInSubtree { $0.didMoveToWindow() }
        presentation?.presented.windowChanged(from: oldWindow)
    }

    /// Visits this controller and its descendants, parents before children.
    func forEachInSubtree(_ body: (Controller) -> Void) {
        body(self)
        for child in children { child.forEachInSubtree(body) }
    }
}
