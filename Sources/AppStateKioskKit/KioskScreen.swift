import AppStateCore
import AppStateIPC

/// What the browser should show for one state of a tree: the page, the viewport, and what
/// `<html>` carries for the page's CSS.
///
/// A pure function of the tree (no browser, no I/O), so that every rule is tested in-process.
public struct KioskScreen: Hashable, Sendable {
    /// The page: the `url` of the deepest current node that has one, else that of its nearest
    /// ancestor with one, else the home page; nil when there is none of these.
    public var url: String?
    /// The window's size, the root's frame.
    public var window: Size
    /// How far an on-screen keyboard covers the screen: the largest keyboard overlap of a
    /// keyboard-aware container on screen.
    public var keyboardHeight: Double
    /// The end of the chain of current children, as `GetCurrent` without a path answers.
    public var current: String
    /// The current controller's content insets.
    public var insets: Insets
    /// The current controller's frame size.
    public var currentSize: Size
    /// The tree's offline page, shown while a screen's page cannot be loaded; nil for the
    /// built-in one.
    public var offline: String?
    /// Whether the screen is blanked: the page covered with black, its input held back.
    public var blanked: Bool
    /// Each login-state container's user, by the container's path; logged-out containers have none.
    public var sessions: [String: String]

    /// The screen for a tree.
    /// - Parameters:
    ///   - tree: The tree, as `GetTree` or `Watch` gives it.
    ///   - home: The page to show when no current node has a url.
    public init(tree: Node, home: String?) {
        var url: String? = nil
        var node = tree
        while true {
            url = node.url ?? url
            guard let next = Self.currentChild(of: node) else { break }
            node = next
        }
        self.url = url ?? home
        offline = tree.offline
        blanked = tree.blanked == true
        window = tree.frame.size
        keyboardHeight = Self.keyboardHeight(in: tree)
        current = node.path
        insets = node.contentInset
        currentSize = node.frame.size
        var sessions: [String: String] = [:]
        Self.collectSessions(in: tree, into: &sessions)
        self.sessions = sessions
    }

    /// The size the page's viewport gets: the window less the keyboard, as Android's
    /// `adjustResize` gives an app, so that a page that knows nothing of the keyboard lays
    /// itself out above it.
    public var viewport: Size {
        Size(width: max(1, window.width.rounded()), height: max(1, (window.height - keyboardHeight).rounded()))
    }

    /// Whether a customer's session ended between `earlier` and this screen: a login-state
    /// container logged out, or logged in as somebody else. Locking is no end: the same
    /// customer comes back.
    /// - Parameter earlier: The screen before the change.
    public func endsSession(since earlier: KioskScreen) -> Bool {
        earlier.sessions.contains { path, user in sessions[path] != user }
    }

    /// What `<html>` carries, as appstate.js writes it: attributes by name, and custom
    /// properties (names starting with `--`) in CSS pixels, one per point of the window.
    public var documentProperties: [DocumentProperty] {
        [
            DocumentProperty("data-appstate-current", current),
            DocumentProperty("data-appstate-connected", "true"),
            DocumentProperty("--appstate-keyboard-height", Self.pixels(keyboardHeight)),
            DocumentProperty("--appstate-inset-top", Self.pixels(insets.top)),
            DocumentProperty("--appstate-inset-left", Self.pixels(insets.left)),
            DocumentProperty("--appstate-inset-bottom", Self.pixels(insets.bottom)),
            DocumentProperty("--appstate-inset-right", Self.pixels(insets.right)),
            DocumentProperty("--appstate-width", Self.pixels(currentSize.width)),
            DocumentProperty("--appstate-height", Self.pixels(currentSize.height)),
        ]
    }

    private static func currentChild(of node: Node) -> Node? {
        if let presented = node.children.last, presented.presented == true { return presented }
        guard let current = node.current else { return nil }
        return node.children.first { $0.identifier == current }
    }

    private static func keyboardHeight(in node: Node) -> Double {
        let own = node.onScreen ? max(0, node.keyboardOverlap ?? 0) : 0
        return node.children.reduce(own) { max($0, keyboardHeight(in: $1)) }
    }

    private static func collectSessions(in node: Node, into sessions: inout [String: String]) {
        if let user = node.user { sessions[node.path] = user }
        for child in node.children { collectSessions(in: child, into: &sessions) }
    }

    private static func pixels(_ points: Double) -> String {
        let value = points.isFinite ? points : 0
        return value == value.rounded() ? "\(Int(value))px" : "\(value)px"
    }
}
