import StateContainers

/// One controller of a tree as the `io.appstate.Node` type carries it, with its children.
public struct Node: VarlinkObject {
    /// Where a controller is in its appearance cycle, as the interface's enum spells it.
    public enum Appearance: String, CaseIterable, Hashable, Sendable {
        /// Not on screen.
        case disappeared
        /// Between `viewWillAppear` and `viewDidAppear`.
        case appearing
        /// On screen.
        case appeared
        /// Between `viewWillDisappear` and `viewDidDisappear`.
        case disappearing
    }

    /// The members of `io.appstate.Node`.
    public static let memberNames = [
        "path", "identifier", "type", "title", "appearance", "frame", "contentInset", "onScreen", "current",
        "pageIndex", "pageCount", "user", "menuVisible", "keyboardOverlap", "contentState", "children",
    ]

    /// The full path from the root, identifiers joined by `/`.
    public var path: String
    /// The controller's identifier, the last path segment.
    public var identifier: String
    /// The controller's kind, e.g. `LoginStateController`.
    public var type: String
    /// The controller's title.
    public var title: String?
    /// Where the controller is in its appearance cycle.
    public var appearance: Appearance
    /// The frame of the controller's view in window coordinates.
    public var frame: Rect
    /// The content inset of the controller's view.
    public var contentInset: Insets
    /// Whether the controller's view is in a visible window.
    public var onScreen: Bool
    /// The identifier of the child a one-child-at-a-time container shows.
    public var current: String?
    /// A paginated container's current page index.
    public var pageIndex: Int?
    /// A paginated container's number of pages.
    public var pageCount: Int?
    /// A login-state container's logged-in user.
    public var user: String?
    /// A menu container's menu visibility.
    public var menuVisible: Bool?
    /// A keyboard-aware container's keyboard overlap in points.
    public var keyboardOverlap: Double?
    /// A content-state container's state: `loading`, `failed` or `render`.
    public var contentState: String?
    /// The child controllers, in order.
    public var children: [Node]

    /// Creates a node.
    /// - Parameters:
    ///   - path: The full path from the root.
    ///   - identifier: The controller's identifier.
    ///   - type: The controller's kind.
    ///   - title: The controller's title.
    ///   - appearance: Where the controller is in its appearance cycle.
    ///   - frame: The view's frame in window coordinates.
    ///   - contentInset: The view's content inset.
    ///   - onScreen: Whether the view is in a visible window.
    ///   - current: The identifier of the child shown, for one-child containers.
    ///   - pageIndex: A paginated container's current page index.
    ///   - pageCount: A paginated container's number of pages.
    ///   - user: A login-state container's logged-in user.
    ///   - menuVisible: A menu container's menu visibility.
    ///   - keyboardOverlap: A keyboard-aware container's keyboard overlap.
    ///   - contentState: A content-state container's state.
    ///   - children: The child controllers, in order.
    public init(
        path: String,
        identifier: String,
        type: String,
        title: String? = nil,
        appearance: Appearance = .disappeared,
        frame: Rect = .zero,
        contentInset: Insets = .zero,
        onScreen: Bool = false,
        current: String? = nil,
        pageIndex: Int? = nil,
        pageCount: Int? = nil,
        user: String? = nil,
        menuVisible: Bool? = nil,
        keyboardOverlap: Double? = nil,
        contentState: String? = nil,
        children: [Node] = []
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
        self.menuVisible = menuVisible
        self.keyboardOverlap = keyboardOverlap
        self.contentState = contentState
        self.children = children
    }

    /// Decodes an `io.appstate.Node` and its descendants.
    /// - Parameter parameters: The object's members.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let reader = try ParameterReader(parameters, declared: Node.memberNames)
        path = try reader.string("path")
        identifier = try reader.string("identifier")
        type = try reader.string("type")
        title = try reader.optionalString("title")
        appearance = try reader.enumeration("appearance", as: Appearance.self)
        frame = try reader.object("frame", as: Rect.self)
        contentInset = try reader.object("contentInset", as: Insets.self)
        onScreen = try reader.bool("onScreen")
        current = try reader.optionalString("current")
        pageIndex = try reader.optionalInt("pageIndex")
        pageCount = try reader.optionalInt("pageCount")
        user = try reader.optionalString("user")
        menuVisible = try reader.optionalBool("menuVisible")
        keyboardOverlap = try reader.optionalFloat("keyboardOverlap")
        contentState = try reader.optionalString("contentState")
        children = try reader.array("children", of: Node.self)
    }

    /// The members of `io.appstate.Node`, children included.
    public var parameters: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "path": .string(path),
            "identifier": .string(identifier),
            "type": .string(type),
            "appearance": .string(appearance.rawValue),
            "frame": .object(frame.parameters),
            "contentInset": .object(contentInset.parameters),
            "onScreen": .bool(onScreen),
            "children": .array(children.map { .object($0.parameters) }),
        ]
        members["title"] = title.map(JSONValue.string)
        members["current"] = current.map(JSONValue.string)
        members["pageIndex"] = pageIndex.map { .number(Double($0)) }
        members["pageCount"] = pageCount.map { .number(Double($0)) }
        members["user"] = user.map(JSONValue.string)
        members["menuVisible"] = menuVisible.map(JSONValue.bool)
        members["keyboardOverlap"] = keyboardOverlap.map(JSONValue.number)
        members["contentState"] = contentState.map(JSONValue.string)
        return members
    }
}
