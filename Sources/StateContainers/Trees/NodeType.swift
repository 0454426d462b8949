/// The controller types a tree file can name, spelled as the classes are.
public enum NodeType: String, CaseIterable, Hashable, Sendable {
    /// A plain ``Controller``: a leaf screen.
    case controller = "Controller"
    /// A ``ContentStateController``: loading, failed, or rendering its one child.
    case contentState = "ContentStateController"
    /// A ``LoginStateController``: its first child when logged out, its second when logged in,
    /// its third (optional) while the session is locked.
    case loginState = "LoginStateController"
    /// A ``PaginatedController``: one of its children (pages) at a time.
    case paginated = "PaginatedController"
    /// A ``KeyboardAwareController``: its one child, inset above the keyboard.
    case keyboardAware = "KeyboardAwareController"
    /// A ``MenuController``: one of its children (menu items) at a time.
    case menu = "MenuController"
    /// A ``StackController``: all its children side by side.
    case stack = "StackController"
    /// A ``NavigationController``: its first child as the root, the others pushed on it.
    case navigation = "NavigationController"

    /// The type names, comma-separated, as error messages list them.
    static let expectedNames = allCases.map(\.rawValue).joined(separator: ", ")

    /// Whether the container animates its swaps over a `transitionDuration`, which a file
    /// sets with `transitionMs`.
    var hasTransitionDuration: Bool {
        switch self {
        case .contentState, .loginState, .paginated, .menu, .navigation: true
        case .controller, .keyboardAware, .stack: false
        }
    }
}
