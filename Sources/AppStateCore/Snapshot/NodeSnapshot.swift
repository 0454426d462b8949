/// The state of one controller and its subtree, as clients see it: which screen, in which
/// rectangle, with which insets.
public struct NodeSnapshot: Codable, Hashable, Sendable {
    /// Identifiers from the root joined by `/`, e.g. `session/home/pages/settings`.
    public var path: String
    /// The controller's type name, e.g. `PaginatedController`.
    public var type: String
    /// The controller's identifier.
    public var identifier: String
    /// The controller's title.
    public var title: String?
    /// Where the view is in its appearance cycle.
    public var appearance: Appearance
    /// The view's frame in window coordinates (zero while the view is not loaded).
    public var frame: Rect
    /// The view's content inset.
    public var contentInset: Insets
    /// Whether the view is in a visible window.
    public var onScreen: Bool
    /// The identifier of the current child, for containers that have one.
    public var current: String?
    /// A paginated container's current page index.
    public var pageIndex: Int?
    /// A paginated container's number of pages.
    public var pageCount: Int?
    /// A login container's logged-in user.
    public var user: String?
    /// Whether a login container's session is locked.
    public var locked: Bool?
    /// A menu's visibility.
    public var menuVisible: Bool?
    /// A keyboard-aware container's keyboard overlap.
    public var keyboardOverlap: Double?
    /// A content-state container's state: `loading`, `failed` or `render`.
    public var contentState: String?
    /// The children's snapshots, in order.
    public var children: [NodeSnapshot]

    /// Creates a snapshot node.
    /// - Parameters:
    ///   - path: The full path from the root.
    ///   - identifier: The controller's identifier.
    ///   - type: The controller's type name.
    ///   - title: The controller's title.
    ///   - appearance: Where the view is in its appearance cycle.
    ///   - frame: The view's frame in window coordinates.
    ///   - contentInset: The view's content inset.
    ///   - onScreen: Whether the view is in a visible window.
    ///   - current: The identifier of the current child.
    ///   - pageIndex: A paginated container's current page index.
    ///   - pageCount: A paginated container's number of pages.
    ///   - user: A login container's logged-in user.
    ///   - locked: Whether a login container's session is locked.
    ///   - menuVisible: A menu's visibility.
    ///   - keyboardOverlap: A keyboard-aware container's keyboard overlap.
    ///   - contentState: A content-state container's state.
    ///   - children: The children's snapshots.
    public init(
        path: String, identifier: String, type: String, title: String? = nil,
        appearance: Appearance = .disappeared, frame: Rect = .zero, contentInset: Insets = .zero, onScreen: Bool = false,
        current: String? = nil, pageIndex: Int? = nil, pageCount: Int? = nil, user: String? = nil,
        locked: Bool? = nil, menuVisible: Bool? = nil, keyboardOverlap: Double? = nil, contentState: String? = nil, children: [NodeSnapshot] = []
    ) {
        self.path = path
        self.identifier = identifier
        self.type = type
        self.title = title
        self.appearance = appearance
        self.frame = frame
        self.contentInset = contentInset
        self.onScreen = onScreen
        self.current = current
        self.pageIndex = pageIndex
        self.pageCount = pageCount
        self.user = user
        self.locked = locked
        self.menuVisible = menuVisible
        self.keyboardOverlap = keyboardOverlap
        self.contentState = contentState
        self.children = children
    }

    /// The node at `path` in this subtree, spelled the one way ``NodePath`` accepts.
    /// - Parameter path: A full path from the tree's root.
    public func node(at path: String) -> NodeSnapshot? {
        NodePath.relative(path, below: self.path).flatMap {
            NodePath.descendant(at: $0, of: self, identifier: \.identifier, children: \.children)
        }
    }

    /// The path of the deepest chain of current children from this node: what `GetCurrent`
    /// without a path answers when this is the root.
    public var deepestCurrentPath: String {
        guard let current, let child = children.first(where: { $0.identifier == current }) else { return path }
        return child.deepestCurrentPath
    }
}
