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
    /// A menu's visibility.
    public var menuVisible: Bool?
    /// A keyboard-aware container's keyboard overlap.
    public var keyboardOverlap: Double?
    /// A content-state container's state: `loading`, `failed` or `render`.
    public var contentState: String?
    /// The children's snapshots, in order.
    public var children: [NodeSnapshot]

    /// The node at `path` in this subtree.
    /// - Parameter path: A full path from the root.
    public func node(at path: String) -> NodeSnapshot? {
        if self.path == path { return self }
        guard path.hasPrefix(self.path + "/") else { return nil }
        for child in children {
            if let node = child.node(at: path) { return node }
        }
        return nil
    }
}
