/// The state of one controller and its subtree, as clients see it: which screen, in which
/// rectangle, with which insets.
///
/// A value type whose members live in one shared, copy-on-write box: a snapshot of a tree is
/// copied node by node wherever it is published, compared and sent, and a copy of seventeen
/// members, eight of them counted references, cost more than everything else a change does
/// with its snapshot. A copy retains the box alone, and two nodes that share a box are
/// known equal without comparing a member.
public struct NodeSnapshot: Codable, Hashable, Sendable {
    @usableFromInline var storage: Storage

    /// Identifiers from the root joined by `/`, e.g. `session/home/pages/settings`.
    @inlinable public var path: String {
        get { storage.members.path }
        set { uniqueStorage().members.path = newValue }
    }

    /// The controller's type name, e.g. `PaginatedController`.
    @inlinable public var type: String {
        get { storage.members.type }
        set { uniqueStorage().members.type = newValue }
    }

    /// The controller's identifier.
    @inlinable public var identifier: String {
        get { storage.members.identifier }
        set { uniqueStorage().members.identifier = newValue }
    }

    /// The controller's title.
    @inlinable public var title: String? {
        get { storage.members.title }
        set { uniqueStorage().members.title = newValue }
    }

    /// Where the view is in its appearance cycle.
    @inlinable public var appearance: Appearance {
        get { storage.members.appearance }
        set { uniqueStorage().members.appearance = newValue }
    }

    /// The view's frame in window coordinates (zero while the view is not loaded).
    @inlinable public var frame: Rect {
        get { storage.members.frame }
        set { uniqueStorage().members.frame = newValue }
    }

    /// The view's content inset.
    @inlinable public var contentInset: Insets {
        get { storage.members.contentInset }
        set { uniqueStorage().members.contentInset = newValue }
    }

    /// Whether the view is in a visible window.
    @inlinable public var onScreen: Bool {
        get { storage.members.onScreen }
        set { uniqueStorage().members.onScreen = newValue }
    }

    /// The identifier of the current child, for containers that have one.
    @inlinable public var current: String? {
        get { storage.members.current }
        set { uniqueStorage().members.current = newValue }
    }

    /// A paginated container's current page index.
    @inlinable public var pageIndex: Int? {
        get { storage.members.pageIndex }
        set { uniqueStorage().members.pageIndex = newValue }
    }

    /// A paginated container's number of pages.
    @inlinable public var pageCount: Int? {
        get { storage.members.pageCount }
        set { uniqueStorage().members.pageCount = newValue }
    }

    /// A login container's logged-in user.
    @inlinable public var user: String? {
        get { storage.members.user }
        set { uniqueStorage().members.user = newValue }
    }

    /// Whether a login container's session is locked.
    @inlinable public var locked: Bool? {
        get { storage.members.locked }
        set { uniqueStorage().members.locked = newValue }
    }

    /// A menu's visibility.
    @inlinable public var menuVisible: Bool? {
        get { storage.members.menuVisible }
        set { uniqueStorage().members.menuVisible = newValue }
    }

    /// A keyboard-aware container's keyboard overlap.
    @inlinable public var keyboardOverlap: Double? {
        get { storage.members.keyboardOverlap }
        set { uniqueStorage().members.keyboardOverlap = newValue }
    }

    /// A content-state container's state: `loading`, `failed` or `render`.
    @inlinable public var contentState: String? {
        get { storage.members.contentState }
        set { uniqueStorage().members.contentState = newValue }
    }

    /// The children's snapshots, in order.
    @inlinable public var children: [NodeSnapshot] {
        get { storage.members.children }
        set { uniqueStorage().members.children = newValue }
    }

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
        storage = Storage(Members(
            path: path, type: type, identifier: identifier, title: title, appearance: appearance, frame: frame,
            contentInset: contentInset, onScreen: onScreen, current: current, pageIndex: pageIndex, pageCount: pageCount,
            user: user, locked: locked, menuVisible: menuVisible, keyboardOverlap: keyboardOverlap,
            contentState: contentState, children: children
        ))
    }

    /// Whether the two are one box: copies of one node that neither has changed since, so
    /// equal, subtree included.
    /// - Parameter other: Another snapshot node.
    /// - Returns: True when the nodes share their members; false says nothing.
    @inlinable public func isIdentical(to other: NodeSnapshot) -> Bool {
        storage === other.storage
    }

    /// The box, copied first when another node shares it.
    @inlinable mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.members) }
        return storage
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
