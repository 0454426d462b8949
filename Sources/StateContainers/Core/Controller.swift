import AppStateCore

/// A headless view controller: owns a lazily loaded ``View``, a place in a containment
/// hierarchy, and the appearance cycle UIKit gives `UIViewController`.
///
/// Subclasses that override a lifecycle or containment method (`viewWillAppear(_:)`,
/// `willMove(toParent:)`, …) call `super`, as in UIKit: the base implementations keep the
/// bookkeeping that ``isMovingToParent`` and friends read.
@MainActor open class Controller {
    /// The controller's name among its siblings and its segment of a tree path.
    public let identifier: String

    /// A human-readable name, shown by clients.
    open var title: String? {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The page a kiosk browser shows for this screen, as the tree file's `url` gives it: an
    /// `http:`, `https:` or `file:` URL, or nil for none. Snapshots carry it
    /// (`NodeSnapshot.url`), so that a browser that follows the tree can show the page of the
    /// deepest current controller that has one. It is not restorable state: the tree file
    /// gives it again at every start and reload. Only a tree file's checks limit it to those
    /// schemes; set here, it is carried as it is.
    public var url: String? {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The identifier under which the controller's state is saved; with every ancestor
    /// having one, the controller takes part in restoration.
    open var restorationIdentifier: String? {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The container this controller is a child of.
    public internal(set) weak var parent: Controller? {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The container that keeps this controller while it is not its child (the login
    /// container's hidden child), so that it keeps its path.
    weak var keeper: Controller? {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// The child controllers, in the order they were added.
    public internal(set) var children: [Controller] = [] {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// Where the view is in its appearance cycle.
    public internal(set) var appearance: Appearance = .disappeared {
        didSet { setNeedsSnapshotUpdate() }
    }

    /// How this controller covers the one that presents it, read when it is presented:
    /// ``ModalPresentationStyle/fullScreen`` unless set.
    public var modalPresentationStyle: ModalPresentationStyle = .fullScreen

    /// How long an animated presentation or dismissal of this controller takes on the
    /// window's clock; zero (the default) presents and dismisses at once.
    public var modalTransitionDuration: Duration = .zero

    /// Makes the controller that ``present(identifier:style:animated:completion:)`` presents
    /// and restoration presents again, or nil for an identifier it does not know. The tree
    /// builder sets it on a tree's root from the tree's `presentations`.
    public var makePresentedController: (@MainActor (String) -> Controller?)?

    var loadedView: View?
    var moving: Moving?
    var callbackDepth = 0
    var appearanceTransition: AppearanceTransition?
    var isTransitioning = false
    weak var rootWindow: Window?
    var privateBus: NotificationBus?
    /// What this controller presents, when it is a presentation context that presents.
    var presentation: Presentation? {
        didSet { setNeedsSnapshotUpdate() }
    }
    /// The presentation context that presents this controller.
    weak var presenter: Controller? {
        didSet { setNeedsSnapshotUpdate() }
    }
    /// Whether the next snapshot must describe this controller again, or visit its subtree,
    /// rather than reuse ``snapshotNode``; set on an ancestor whenever it is set on a controller.
    var needsSnapshotUpdate = true
    /// The snapshot node last made for this controller, subtree included.
    var snapshotNode: NodeSnapshot?
    /// Whether the next encoding of the restorable state must encode this controller again,
    /// or visit its subtree, rather than keep its entries in the document as they are; set
    /// with ``needsSnapshotUpdate``, and on an ancestor whenever it is set on a controller.
    var needsRestorationUpdate = true
    /// Where and into which kept document this controller's state was last encoded.
    var restorationRecord: RestorationRecord?
    /// The document ``encodeRestorableChanges(since:)`` keeps up to date when called on this
    /// controller, the path it was encoded at, and the number its records carry.
    var keptRestorationDocument: (owner: Int, path: String, document: RestorationDocument)?

    /// The class's name, as snapshots report it (`PaginatedController`): every change
    /// snapshots the tree, so each controller keeps the name of its class.
    lazy var snapshotTypeName = Controller.name(of: type(of: self))

    /// The names of the controller classes described so far: describing a class demangles
    /// its name and asks the runtime whether it conforms to the printing protocols, each
    /// question it has not met before a scan of the binary's conformance records, so each
    /// class is described once.
    private static var classNames: [ObjectIdentifier: String] = [:]
    /// The kept restoration documents made so far, which numbers each one: a record of
    /// another document's encoding does not say what this one holds.
    static var restorationDocumentCount = 0

    enum Moving { case toParent, fromParent }

    /// Creates a controller.
    /// - Parameters:
    ///   - identifier: The name among its siblings; must be non-empty and contain no `/`,
    ///     which ``addChild(_:)`` checks.
    ///   - title: A human-readable name.
    public init(identifier: String, title: String? = nil) {
        self.identifier = identifier
        self.title = title
    }

    /// The controller's view, loaded on first access; loading calls ``viewDidLoad()`` once.
    public var view: View {
        if let loadedView { return loadedView }
        let view = View()
        view.owner = self
        loadedView = view
        // The snapshot reports the loaded view's frame, insets and place on screen.
        setNeedsSnapshotUpdate()
        viewDidLoad()
        return view
    }

    /// Whether the view has been loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Loads the view if it has not been loaded yet.
    public func loadViewIfNeeded() {
        _ = view
    }

    /// The window of the tree this controller belongs to, through its ancestors and the
    /// controllers presenting them, whether or not its own view is installed.
    public var window: Window? {
        var controller = self
        while let next = controller.parent ?? controller.presenter { controller = next }
        return controller.rootWindow
    }

    /// The bus of the controller's window; a controller in no window has a private one.
    public var bus: NotificationBus {
        if let window { return window.bus }
        if let privateBus { return privateBus }
        let bus = NotificationBus()
        privateBus = bus
        return bus
    }

    /// Whether an appearance callback of this controller is running while it is being added to a parent.
    public var isMovingToParent: Bool { moving == .toParent && callbackDepth > 0 }

    /// Whether an appearance callback of this controller is running while it is being removed from its parent.
    public var isMovingFromParent: Bool { moving == .fromParent && callbackDepth > 0 }

    /// Whether the controller forwards appearance callbacks to its children. Containers that
    /// return false drive ``beginAppearanceTransition(_:animated:)`` on their children themselves.
    open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

    /// The child that is current, for containers that show one child at a time; nil otherwise.
    open var currentChild: Controller? { nil }

    /// Every child this controller owns, shown or not, in a fixed order: what snapshots
    /// list, what paths address and what restoration saves. For most containers these are
    /// its ``children``; a container that keeps a child aside while it is not shown (the
    /// login container's other child) names it here too, so that the child's state is
    /// saved, restored and visible while it waits.
    open var configuredChildren: [Controller] { children }

    /// Called once, after the view is loaded on first access.
    open func viewDidLoad() {}

    /// Called before the view appears.
    /// - Parameter animated: Whether it appears as part of an animated transition.
    open func viewWillAppear(_ animated: Bool) {}

    /// Called after the view appeared.
    /// - Parameter animated: Whether it appeared as part of an animated transition.
    open func viewDidAppear(_ animated: Bool) {}

    /// Called before the view disappears.
    /// - Parameter animated: Whether it disappears as part of an animated transition.
    open func viewWillDisappear(_ animated: Bool) {}

    /// Called after the view disappeared.
    /// - Parameter animated: Whether it disappeared as part of an animated transition.
    open func viewDidDisappear(_ animated: Bool) {}

    /// Called before the view lays out its subviews; containers place their children's views here.
    open func viewWillLayoutSubviews() {}

    /// Called after the view laid out its subviews.
    open func viewDidLayoutSubviews() {}

    /// Called before the controller is added to or removed from a parent.
    /// - Parameter parent: The new parent, or nil when it is being removed.
    open func willMove(toParent parent: Controller?) {
        moving = parent == nil ? .fromParent : .toParent
    }

    /// Called after the controller was added to or removed from a parent.
    /// - Parameter parent: The new parent, or nil when it was removed.
    open func didMove(toParent parent: Controller?) {
        moving = nil
    }

    /// Called after the controller joined or left a window's tree (``window`` changed).
    /// Containers start or stop observing the window's bus here.
    open func didMoveToWindow() {}

    /// Called before the size of the view changes; the default tells each installed child
    /// whose size changes, as ``size(forChildContentContainer:withParentContainerSize:)`` decides.
    /// - Parameter size: The new size of the view.
    open func viewWillTransition(to size: Size) {
        for child in installedChildren {
            let childSize = self.size(forChildContentContainer: child, withParentContainerSize: size)
            if childSize != child.view.bounds.size { child.viewWillTransition(to: childSize) }
        }
    }

    /// The size a child gets when this controller's view takes a new size.
    /// - Parameters:
    ///   - child: One of the children.
    ///   - parentSize: The new size of this controller's view.
    /// - Returns: The child's new size; the default is the parent's.
    open func size(forChildContentContainer child: Controller, withParentContainerSize parentSize: Size) -> Size {
        parentSize
    }

    /// Saves the controller's restorable state; the default saves nothing.
    /// - Parameter coder: Where to put the state.
    open func encodeRestorableState(with coder: RestorationCoder) {}

    /// Restores what ``encodeRestorableState(with:)`` saved; runs before the tree appears.
    /// - Parameter coder: The saved state.
    open func decodeRestorableState(with coder: RestorationCoder) {}

    /// Whether this class calls ``setNeedsSnapshotUpdate()`` whenever something it reports in
    /// a snapshot or saves for restoration changes: what its ``describe(in:)``, ``title``,
    /// ``currentChild``, ``configuredChildren``, ``restorationIdentifier`` or
    /// ``encodeRestorableState(with:)`` give. A snapshot then reuses such a controller's last
    /// node, and skips its subtree, until it or a descendant is marked, and so does encoding
    /// the restorable tree; a controller of a class that does not say so is described and
    /// encoded again every time, with its ancestors, so that an override that never marks
    /// cannot leave a snapshot or a saved state stale.
    ///
    /// `Controller` and the containers of this module say so. It is true for this exact
    /// class only: a subclass that marks its changes overrides it as
    /// `override class var marksSnapshotUpdates: Bool { self == MyController.self }`, so that
    /// its own subclasses, which may describe more, are described every time until they say
    /// so too. What the base class reports (appearance, children, presentation, the view's
    /// frame, insets and place on screen) is marked by the base class.
    open class var marksSnapshotUpdates: Bool { self == Controller.self }

    /// Adds what is particular to a container (page index, user, …) to its snapshot.
    /// Subclasses call `super`, and call ``setNeedsSnapshotUpdate()`` whenever what they add
    /// changes; a class that does so says it with ``marksSnapshotUpdates``.
    /// - Parameter node: The snapshot being built for this controller.
    open func describe(in node: inout NodeSnapshot) {
        node.current = currentChild?.identifier
    }

    /// A controller class's name, unqualified (`PaginatedController`), described once per class.
    private static func name(of type: Controller.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = classNames[key] { return name }
        let name = String(describing: type)
        classNames[key] = name
        return name
    }

    /// The children whose views are installed in this controller's view.
    var installedChildren: [Controller] {
        guard let loadedView else { return [] }
        return children.filter { child in
            guard let childView = child.loadedView, childView !== loadedView else { return false }
            return childView.superview != nil && childView.isDescendant(of: loadedView)
        }
    }
}
