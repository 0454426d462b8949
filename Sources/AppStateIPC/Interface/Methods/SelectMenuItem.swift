/// `io.appstate.SelectMenuItem(path: ?string, id: string) -> (path: string)`: activates an
/// item of a menu container.
public enum SelectMenuItem: VarlinkMethod {
    /// `io.appstate.SelectMenuItem`.
    public static let name = AppStateMethod.selectMenuItem.rawValue

    /// The parameters: the menu container and the item's identifier.
    public typealias Parameters = ChildParameters

    /// The reply: the full path of the active item.
    public typealias Reply = PathReply
}
