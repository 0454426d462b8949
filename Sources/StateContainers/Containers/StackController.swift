import AppStateCore

/// Shows all its children at once, splitting its bounds into equal slots along ``axis``
/// with ``spacing`` between them, as a `UIStackView` with `.fillEqually` distribution
/// hosting child controllers' views.
///
/// The axis follows the shape of the container: side by side in landscape, one above the
/// other in portrait. On a size change each child is told its own new size through
/// ``size(forChildContentContainer:withParentContainerSize:)``, then laid out again.
public final class StackController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The gap between neighbouring children, in points, ``spacingProblem(_:)``'s rule. A value
    /// it refuses is ignored with a ``ContainmentWarning``; setting it lays the children out again.
    public var spacing: Double {
        didSet {
            if let problem = Self.spacingProblem(spacing) {
                ContainmentWarning.emit("ignored spacing: \(problem)", on: identifier)
                spacing = oldValue
                return
            }
            loadedView?.layoutSubviews()
        }
    }

    /// The spacing of a stack that is given none.
    public static let defaultSpacing = 0.0

    /// What is wrong with a spacing, or nil: it must be a finite number of at least 0. The one
    /// rule of the initialiser, the setter and tree files.
    /// - Parameter spacing: A spacing.
    /// - Returns: The problem, quoting the value.
    public nonisolated static func spacingProblem(_ spacing: Double) -> String? {
        spacing.isFinite && spacing >= 0 ? nil : "spacing must be a number of at least 0 (got \(TreeValidator.format(spacing)))"
    }

    /// Creates a stack.
    /// - Parameters:
    ///   - identifier: The container's identifier.
    ///   - arrangedChildren: The children, in order along the axis; may be empty.
    ///   - spacing: The gap between neighbouring children; see ``spacingProblem(_:)``.
    ///   - title: A human-readable name.
    /// - Throws: ``ContainmentError/invalidArgument`` for a spacing ``spacingProblem(_:)``
    ///   refuses or a child identifier that is empty or contains `/`,
    ///   ``ContainmentError/duplicateIdentifier`` when two children share one.
    public init(identifier: String, arrangedChildren: [Controller], spacing: Double = StackController.defaultSpacing, title: String? = nil) throws {
        self.spacing = spacing
        super.init(identifier: identifier, title: title)
        if let problem = Self.spacingProblem(spacing) {
            throw ContainmentError.invalidArgument.with("\(identifier): \(problem)")
        }
        try adoptChildren(arrangedChildren, noun: "arranged child")
    }

    /// The children, in order along the axis.
    public var arrangedChildren: [Controller] { children }

    /// `.horizontal` while the container is wider than tall, else `.vertical` (also while its
    /// view is not loaded and has no size).
    public var axis: Axis { Axis(for: loadedView?.bounds.size ?? .zero) }

    /// Installs every child's view and lays them out.
    public override func viewDidLoad() {
        super.viewDidLoad()
        for child in children { view.addSubview(child.view) }
        layOutArrangedChildren()
    }

    /// Gives each child its slot of the container's bounds.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        layOutArrangedChildren()
    }

    /// A child's slot size for a given size of the container, so that a resize tells each
    /// child its own new size rather than the container's.
    /// - Parameters:
    ///   - child: One of the children.
    ///   - parentSize: The container's new size.
    /// - Returns: The child's slot size; the container's size for a controller that is not a child.
    public override func size(forChildContentContainer child: Controller, withParentContainerSize parentSize: Size) -> Size {
        guard let index = children.firstIndex(where: { $0 === child }) else { return parentSize }
        return Self.slots(count: children.count, in: Rect(origin: .zero, size: parentSize), spacing: spacing)[index].size
    }

    private func layOutArrangedChildren() {
        for (child, frame) in zip(children, Self.slots(count: children.count, in: view.bounds, spacing: spacing)) {
            child.view.frame = frame
        }
    }
}

extension StackController {
    /// `StackController` in a tree file: its arranged children, at least one, and `spacing`.
    public enum Kind: ControllerKind {
        /// `StackController`.
        public static let typeName = "StackController"
        /// At least one child: its arranged children (a stack made in code may be empty).
        public static let children = ChildRule(minimum: 1, maximum: nil, roles: "its arranged children")
        /// `spacing`: the gap between neighbours, in points; ``StackController/defaultSpacing``
        /// when left out.
        public static let spacing = NodeKey.number("spacing", problem: StackController.spacingProblem)
        /// `spacing`.
        public static let keys = [spacing]

        /// Makes the stack.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: The arranged children.
        ///   - build: Not needed.
        /// - Returns: The stack.
        /// - Throws: What ``StackController/init(identifier:arrangedChildren:spacing:title:)`` throws.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            try StackController(
                identifier: node.id, arrangedChildren: children, spacing: node.number(spacing) ?? StackController.defaultSpacing, title: node.title)
        }
    }
}
