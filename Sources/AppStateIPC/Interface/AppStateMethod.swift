/// The methods of the `io.appstate` interface, by fully-qualified name, for dispatching
/// a ``VarlinkCall`` on its ``VarlinkCall/method``.
public enum AppStateMethod: String, CaseIterable, Sendable {
    /// ``GetTree``.
    case getTree = "io.appstate.GetTree"
    /// ``GetCurrent``.
    case getCurrent = "io.appstate.GetCurrent"
    /// ``Post``.
    case post = "io.appstate.Post"
    /// ``Login``.
    case login = "io.appstate.Login"
    /// ``Logout``.
    case logout = "io.appstate.Logout"
    /// ``ShowKeyboard``.
    case showKeyboard = "io.appstate.ShowKeyboard"
    /// ``HideKeyboard``.
    case hideKeyboard = "io.appstate.HideKeyboard"
    /// ``SetPage``.
    case setPage = "io.appstate.SetPage"
    /// ``SelectMenuItem``.
    case selectMenuItem = "io.appstate.SelectMenuItem"
    /// ``Push``.
    case push = "io.appstate.Push"
    /// ``Pop``.
    case pop = "io.appstate.Pop"
    /// ``Resize``.
    case resize = "io.appstate.Resize"
    /// ``Watch``.
    case watch = "io.appstate.Watch"
    /// ``GetStats``.
    case getStats = "io.appstate.GetStats"

    /// The name without the interface, as the interface file declares it, e.g. `GetTree`.
    public var shortName: String { String(rawValue.dropFirst(AppStateInterface.name.count + 1)) }

    /// Whether the method changes a tree, and so needs the caller to be allowed to mutate.
    public var isMutation: Bool {
        switch self {
        case .getTree, .getCurrent, .watch, .getStats: false
        case .post, .login, .logout, .showKeyboard, .hideKeyboard, .setPage, .selectMenuItem, .push, .pop, .resize: true
        }
    }

    /// The type that describes the method's parameters and reply.
    public var declaration: any VarlinkMethod.Type {
        switch self {
        case .getTree: GetTree.self
        case .getCurrent: GetCurrent.self
        case .post: Post.self
        case .login: Login.self
        case .logout: Logout.self
        case .showKeyboard: ShowKeyboard.self
        case .hideKeyboard: HideKeyboard.self
        case .setPage: SetPage.self
        case .selectMenuItem: SelectMenuItem.self
        case .push: Push.self
        case .pop: Pop.self
        case .resize: Resize.self
        case .watch: Watch.self
        case .getStats: GetStats.self
        }
    }
}
