/// The methods of the `io.appstate` interface, by fully-qualified name, for dispatching
/// a ``VarlinkCall`` on its ``VarlinkCall/method``.
public enum AppStateMethod: String, AppStateQualifiedName, CaseIterable, Sendable {
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
    /// ``Lock``.
    case lock = "io.appstate.Lock"
    /// ``Unlock``.
    case unlock = "io.appstate.Unlock"
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

    /// What a call of a method does, which decides who may make it, where it is answered
    /// and whether its reply waits for a write.
    public enum Effect: Sendable {
        /// Reads what the daemon publishes after every change (the trees): answerable on any
        /// thread from the latest publication.
        case readsPublished
        /// Reads the daemon's own state (statistics), where it lives.
        case readsLive
        /// Streams replies: the connection carries only them from then on.
        case streams
        /// Changes restorable state (who is logged in, pages, menus, stacks): the reply waits
        /// until the change is on disk. `Post` counts, since it may log in or out.
        case changesDurably
        /// Changes transient state (the keyboard, the window size), which is not saved.
        case changesTransiently

        /// Whether it changes a tree, and so needs the caller to be allowed to mutate.
        public var isMutation: Bool {
            switch self {
            case .readsPublished, .readsLive, .streams: false
            case .changesDurably, .changesTransiently: true
            }
        }
    }

    /// What a call of this method does.
    public var effect: Effect {
        switch self {
        case .getTree, .getCurrent: .readsPublished
        case .getStats: .readsLive
        case .watch: .streams
        case .post, .login, .logout, .lock, .unlock, .setPage, .selectMenuItem, .push, .pop: .changesDurably
        case .showKeyboard, .hideKeyboard, .resize: .changesTransiently
        }
    }

    /// Whether the method changes a tree, and so needs the caller to be allowed to mutate.
    public var isMutation: Bool { effect.isMutation }

    /// The type that describes the method's parameters and reply.
    public var declaration: any VarlinkMethod.Type {
        switch self {
        case .getTree: GetTree.self
        case .getCurrent: GetCurrent.self
        case .post: Post.self
        case .login: Login.self
        case .logout: Logout.self
        case .lock: Lock.self
        case .unlock: Unlock.self
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
