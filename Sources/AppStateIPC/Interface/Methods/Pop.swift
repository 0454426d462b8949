import AppStateCore

/// `io.appstate.Pop(path: ?string) -> (path: string)`: pops the top controller off a
/// navigation container's stack (never the root).
public enum Pop: VarlinkMethod {
    /// `io.appstate.Pop`.
    public static let name = AppStateMethod.pop.rawValue

    /// The parameters: the navigation container, the first one in the tree when `nil`.
    public typealias Parameters = PathParameters

    /// The reply: the full path of the new top of the stack.
    public typealias Reply = PathReply
}
