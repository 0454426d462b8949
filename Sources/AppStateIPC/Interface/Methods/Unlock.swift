/// `io.appstate.Unlock(tree: ?string) -> (changed: bool, path: string)`: unlocks the session of a tree's login-state container and shows its logged-in
/// child again.
public enum Unlock: VarlinkMethod {
    /// `io.appstate.Unlock`.
    public static let name = AppStateMethod.unlock.rawValue

    /// The tree to change.
    public typealias Parameters = TreeParameters

    /// Whether anything changed, and the child shown now.
    public typealias Reply = Logout.Reply
}
