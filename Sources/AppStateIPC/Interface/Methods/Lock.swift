/// `io.appstate.Lock(tree: ?string) -> (changed: bool, path: string)`: locks the session of a tree's login-state container: it stays logged in and
/// the lock screen is shown.
public enum Lock: VarlinkMethod {
    /// `io.appstate.Lock`.
    public static let name = AppStateMethod.lock.rawValue

    /// The tree to change.
    public typealias Parameters = TreeParameters

    /// Whether anything changed, and the child shown now.
    public typealias Reply = Logout.Reply
}
