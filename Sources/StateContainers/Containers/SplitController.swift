import AppStateCore

/// A primary and a secondary child side by side, or the primary alone where there is not room
/// for both: `UISplitViewController` with its two columns, and its collapse onto the primary in
/// a compact width.
///
/// While its bounds are at least ``minimumExpandedWidth`` wide the container is expanded: the
/// primary's view takes the leading ``primaryFraction`` of the width (as UIKit's
/// `preferredPrimaryColumnWidthFraction`) and the secondary's the rest. Narrower, it is
/// ``isCollapsed``: only the primary's view is installed, filling the container.
///
/// Both children stay children whatever the width, as a paginated container's pages do, so a
/// collapse or an expansion sends no `willMove`/`didMove`: the secondary's view leaves or joins
/// the container's, and on screen the secondary gets `viewWillDisappear`/`viewDidDisappear`
/// or `viewWillAppear`/`viewDidAppear`. The layout follows the container's bounds whenever they
/// change (a window resized, a parent laying it out again); on a resize, `viewWillTransition(to:)`
/// first reaches each child shown at the new size whose size changes. The width decides
/// everything, so there is nothing to restore.
public final class SplitController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The child on the leading side, shown at every width.
    public let primary: Controller

    /// The child beside the primary, shown only while the container is expanded.
    public let secondary: Controller

    /// The share of the container's width the primary takes while expanded; see
    /// ``primaryFractionProblem(_:)``.
    public let primaryFraction: Double

    /// The narrowest width, in points, at which both children show; see
    /// ``minimumExpandedWidthProblem(_:)``.
    public let minimumExpandedWidth: Double

    /// Whether only the primary is shown; true until the container's view is laid out at a width
    /// of at least ``minimumExpandedWidth``.
    public private(set) var isCollapsed = true {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The primary's share of the width when none is given.
    public static let defaultPrimaryFraction = 0.4

    /// The width below which the container collapses when none is given: narrower than a tablet
    /// held upright, wider than a phone.
    public static let defaultMinimumExpandedWidth = 700.0

    /// Creates a split container. No view is loaded.
    /// - Parameters:
    ///   - identifier: The name among its siblings.
    ///   - primary: The child on the leading side, shown at every width.
    ///   - secondary: The child beside it, shown while expanded.
    ///   - primaryFraction: The primary's share of the width while expanded.
    ///   - minimumExpandedWidth: The narrowest width at which both children show.
    ///   - title: A human-readable name.
    /// - Throws: ``ContainmentError/invalidArgument`` for a fraction or width that
    ///   ``primaryFractionProblem(_:)`` or ``minimumExpandedWidthProblem(_:)`` refuses, or a
    ///   child identifier that is empty or contains `/`,
    ///   ``ContainmentError/duplicateIdentifier`` when both children have one identifier (the
    ///   same controller twice, say), ``ContainmentError/cycle`` when a child is the container
    ///   or one of its ancestors.
    public init(
        identifier: String, primary: Controller, secondary: Controller,
        primaryFraction: Double = SplitController.defaultPrimaryFraction,
        minimumExpandedWidth: Double = SplitController.defaultMinimumExpandedWidth, title: String? = nil
    ) throws {
        self.primary = primary
        self.secondary = secondary
        self.primaryFraction = primaryFraction
        self.minimumExpandedWidth = minimumExpandedWidth
        super.init(identifier: identifier, title: title)
        if let problem = Self.primaryFractionProblem(primaryFraction) ?? Self.minimumExpandedWidthProblem(minimumExpandedWidth) {
            throw ContainmentError.invalidArgument.with("\(identifier): \(problem)")
        }
        try adoptChildren([primary, secondary], noun: "column")
    }

    /// What is wrong with a primary fraction, or nil: it must lie between 0 and 1, both excluded,
    /// so that each child gets some of the width. The one rule of the initialiser and tree files.
    /// - Parameter fraction: A fraction.
    /// - Returns: The problem, quoting the value.
    public nonisolated static func primaryFractionProblem(_ fraction: Double) -> String? {
        fraction > 0 && fraction < 1 ? nil : "primary fraction must be a number above 0 and below 1 (got \(TreeValidator.format(fraction)))"
    }

    /// What is wrong with a minimum expanded width, or nil: it must be a finite number of at least
    /// 0. The one rule of the initialiser and tree files.
    /// - Parameter width: A width, in points.
    /// - Returns: The problem, quoting the value.
    public nonisolated static func minimumExpandedWidthProblem(_ width: Double) -> String? {
        width.isFinite && width >= 0 ? nil : "minimum expanded width must be a number of at least 0 (got \(TreeValidator.format(width)))"
    }

    /// The primary while collapsed, the one child shown; nil while both are, as for a stack.
    public override var currentChild: Controller? { isCollapsed ? primary : nil }

    /// Installs the children the container's bounds have room for.
    public override func viewDidLoad() {
        super.viewDidLoad()
        layOutColumns()
    }

    /// Collapses or expands for the container's bounds, and gives each shown child its column.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        layOutColumns()
    }

    /// Tells each child shown at the new size whose size changes, the secondary included when
    /// it is about to come back; not the secondary when it is about to leave, as it has no size
    /// then. The base implementation would tell the children installed now instead.
    /// - Parameter size: The new size of the container's view.
    public override func viewWillTransition(to size: Size) {
        for (child, frame) in columns(in: Rect(origin: .zero, size: size)) where child.parent === self && child.isViewLoaded {
            if frame.size != child.view.bounds.size { child.viewWillTransition(to: frame.size) }
        }
    }

    /// A child's column size for a given size of the container.
    /// - Parameters:
    ///   - child: One of the children.
    ///   - parentSize: The container's new size.
    /// - Returns: The child's column size; the container's size for a child not shown at that size.
    public override func size(forChildContentContainer child: Controller, withParentContainerSize parentSize: Size) -> Size {
        columns(in: Rect(origin: .zero, size: parentSize)).first { $0.child === child }?.frame.size ?? parentSize
    }

    /// Adds whether the container is collapsed to the snapshot.
    /// - Parameter node: The snapshot being built for this controller.
    public override func describe(in node: inout NodeSnapshot) {
        super.describe(in: &node)
        node.collapsed = isCollapsed
    }

    /// The children shown in `bounds`, each with its frame: the primary alone when `bounds` is
    /// narrower than ``minimumExpandedWidth``, else both, the primary leading.
    private func columns(in bounds: Rect) -> [(child: Controller, frame: Rect)] {
        guard bounds.width >= minimumExpandedWidth else { return [(primary, bounds)] }
        let primaryWidth = bounds.width * primaryFraction
        return [
            (primary, Rect(x: bounds.minX, y: bounds.minY, width: primaryWidth, height: bounds.height)),
            (secondary, Rect(x: bounds.minX + primaryWidth, y: bounds.minY, width: bounds.width - primaryWidth, height: bounds.height)),
        ]
    }

    /// Installs the views of the children shown at the current bounds, at their frames, and
    /// removes the secondary's when it is not shown. The secondary leaves before the primary
    /// grows, and comes back after the primary shrank.
    private func layOutColumns() {
        guard let view = loadedView else { return }
        let columns = self.columns(in: view.bounds)
        isCollapsed = columns.count == 1
        if isCollapsed, secondary.parent === self, secondary.loadedView?.superview === view {
            secondary.view.removeFromSuperview()
        }
        // A child another container took meanwhile stays where it is.
        for (child, frame) in columns where child.parent === self {
            child.view.frame = frame
            if child.view.superview !== view { view.addSubview(child.view) }
        }
    }
}

extension SplitController {
    /// `SplitController` in a tree file: its primary and secondary as its children, in that
    /// order; `primaryFraction` and `minimumExpandedWidth`, the container's defaults when left out.
    public enum Kind: ControllerKind {
        /// `SplitController`.
        public static let typeName = "SplitController"
        /// Exactly two children: the primary, then the secondary.
        public static let children = ChildRule(minimum: 2, maximum: 2, roles: "primary, secondary")
        /// `primaryFraction`: the primary's share of the width while expanded.
        public static let primaryFraction = NodeKey.number("primaryFraction", problem: SplitController.primaryFractionProblem)
        /// `minimumExpandedWidth`: the narrowest width, in points, at which both children show.
        public static let minimumExpandedWidth = NodeKey.number("minimumExpandedWidth", problem: SplitController.minimumExpandedWidthProblem)
        /// `primaryFraction` and `minimumExpandedWidth`.
        public static let keys = [primaryFraction, minimumExpandedWidth]

        /// Makes the split container.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: The primary and the secondary.
        ///   - build: Not needed.
        /// - Returns: The split container.
        /// - Throws: What ``SplitController/init(identifier:primary:secondary:primaryFraction:minimumExpandedWidth:title:)`` throws.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            try SplitController(
                identifier: node.id, primary: children[0], secondary: children[1],
                primaryFraction: node.number(primaryFraction) ?? SplitController.defaultPrimaryFraction,
                minimumExpandedWidth: node.number(minimumExpandedWidth) ?? SplitController.defaultMinimumExpandedWidth,
                title: node.title
            )
        }
    }
}
