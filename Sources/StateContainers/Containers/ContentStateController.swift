import AppStateCore

/// A container that shows a loading screen, an error, or its content, and swaps between
/// them as the content's state changes: the "content state" pattern of UIKit apps, which
/// keeps the fetching screen's own controller free of loading and error handling.
///
/// Each swap follows the swap timeline of <doc:ContainmentContract>. Only the shown child
/// is installed. A state set before the view loads adds its child without loading any view;
/// if no state was set by the time the view loads, the container shows ``ContentState/loading``.
/// The state is transient: it takes no part in restoration.
public final class ContentStateController: Controller {
    /// True: every change to what this container reports marks it.
    public override class var marksSnapshotUpdates: Bool { true }

    /// The state last asked for with ``transition(to:)``; nil until one is.
    public private(set) var state: ContentState? {
        didSet { setNeedsSnapshotUpdate() }
    }

    private lazy var slot = ShownChildSlot(owner: self)

    /// Creates a content-state container with nothing shown yet.
    /// - Parameters:
    ///   - identifier: The name among its siblings.
    ///   - title: A human-readable name.
    public override init(identifier: String, title: String? = nil) {
        super.init(identifier: identifier, title: title)
    }

    /// The child shown for the state: a ``LoadingController``, an ``ErrorController`` or
    /// the controller to render. While an animated swap runs, it is the arriving child, and
    /// a newer state waits for that swap to finish.
    public var shownController: Controller? { slot.shown }

    /// The shown child.
    public override var currentChild: Controller? { slot.shown }

    /// How long a swap takes on the window's clock; zero, the default, swaps before
    /// ``transition(to:)`` returns.
    public var transitionDuration: Duration {
        get { slot.duration }
        set { slot.duration = newValue }
    }

    /// Shows the child for a state: the loading child for ``ContentState/loading``, the
    /// error child for ``ContentState/failed(_:)`` (updated in place when an error is
    /// already shown, since both would be named `error`), or the given controller.
    /// Asking for the state already shown changes nothing on screen.
    /// - Parameter state: The new state.
    /// - Throws: For ``ContentState/render(_:)``, ``ContainmentError/cycle`` when the
    ///   controller is this container or one of its ancestors,
    ///   ``ContainmentError/invalidArgument`` for an empty identifier or one with `/`,
    ///   ``ContainmentError/duplicateIdentifier`` when the child it replaces has the same
    ///   identifier, ``ContainmentError/transitionInProgress`` when the controller is in
    ///   another container's transition. Nothing changes then.
    public func transition(to state: ContentState) throws {
        // A second loading or error child would collide with the identifier of the one
        // already shown (or waiting to be), so that one is reused.
        let child: Controller
        switch state {
        case .loading:
            child = (self.state == .loading ? slot.target as? LoadingController : nil) ?? LoadingController()
        case .failed(let message):
            child = (self.state?.name == "failed" ? slot.target as? ErrorController : nil) ?? ErrorController(message: message)
        case .render(let controller):
            child = controller
        }
        try slot.validate(child)
        if case .failed(let message) = state, let error = child as? ErrorController {
            error.message = message
        }
        self.state = state
        slot.show(child)
    }

    /// Installs the child of a state set before the view loaded, or shows
    /// ``ContentState/loading`` when none was.
    public override func viewDidLoad() {
        super.viewDidLoad()
        slot.installShownView()
        guard state == nil else { return }
        do {
            try transition(to: .loading)
        } catch {
            // Only a child named `loading` added by hand gets in the way.
            ContainmentWarning.emit("could not show the loading state: \(error)", on: identifier)
        }
    }

    /// Sizes the shown child's view to the container's bounds.
    public override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        slot.layout()
    }

    /// Adds the state's name (`loading`, `failed`, `render`) to the snapshot.
    /// - Parameter node: The snapshot being built for this controller.
    public override func describe(in node: inout NodeSnapshot) {
        super.describe(in: &node)
        node.contentState = state?.name
    }
}

extension ContentStateController {
    /// `ContentStateController` in a tree file: at most one child, what it renders; `state`, the
    /// state it starts in (`loading`, `failed` or `render`; when left out, `render` with a child
    /// and `loading` without); `message`, the failure of state `failed`; and `transitionMs`.
    public enum Kind: ControllerKind {
        /// `ContentStateController`.
        public static let typeName = "ContentStateController"
        /// At most one child: what it renders.
        public static let children = ChildRule(minimum: 0, maximum: 1, roles: "what it renders")
        /// `state`: the state the container starts in.
        public static let state = NodeKey.string("state") { name in
            stateNames.contains(name) ? nil : "unknown state \"\(name)\" (expected one of \(stateNames.joined(separator: ", ")))"
        }
        /// `message`: what failed, for state `failed`.
        public static let message = NodeKey.string("message")
        /// `state`, `message` and `transitionMs`.
        public static let keys = [state, message, NodeKey.transitionMs]

        /// The states a node can start in, as ``ContentState/name`` spells them.
        private static let stateNames = ["loading", "failed", "render"]

        /// Checks that the state, the child and the message agree.
        /// - Parameters:
        ///   - node: The node.
        ///   - report: Takes each problem with its place.
        public static func validate(_ node: NodeSpec, report: (_ place: [TreeFileError.PathComponent], _ problem: String) -> Void) {
            let state = startingState(of: node)
            // An unknown state is the key's own problem, reported at the key.
            guard stateNames.contains(state) else { return }
            if state == "render", node.children.isEmpty {
                report([], "a ContentStateController in state \"render\" needs a child to render")
            } else if state != "render", !node.children.isEmpty {
                report([], "a ContentStateController in state \"\(state)\" does not show its child (only state \"render\" does)")
            }
            if state == "failed", node.string(message) == nil {
                report([], "a ContentStateController in state \"failed\" needs a \"message\"")
            } else if state != "failed", node.string(message) != nil {
                report([.key(message.name)], "\"message\" applies only to state \"failed\"")
            }
        }

        /// Makes the container in the node's state.
        /// - Parameters:
        ///   - node: The node.
        ///   - children: What it renders, if anything.
        ///   - build: Not needed.
        /// - Returns: The container, showing its state once its view loads.
        /// - Throws: What ``ContentStateController/transition(to:)`` throws.
        public static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
        {
            let controller = ContentStateController(identifier: node.id, title: node.title)
            if let duration = node.transitionDuration { controller.transitionDuration = duration }
            switch startingState(of: node) {
            case "render": try controller.transition(to: .render(children[0]))
            case "failed": try controller.transition(to: .failed(node.string(message) ?? ""))
            // Loading is what the container shows when its view loads with no state set.
            default: break
            }
            return controller
        }

        /// The state a node starts in, with the default of ``state`` applied.
        private static func startingState(of node: NodeSpec) -> String {
            node.string(state) ?? (node.children.isEmpty ? "loading" : "render")
        }
    }
}
