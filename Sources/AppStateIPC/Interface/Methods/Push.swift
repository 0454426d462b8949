/// `io.appstate.Push(path: ?string, id: string) -> (path: string)`: pushes a controller
/// onto a navigation container's stack.
public enum Push: VarlinkMethod {
    /// `io.appstate.Push`.
    public static let name = AppStateMethod.push.rawValue

    /// The parameters: the navigation container and the identifier of the controller to push.
    public typealias Parameters = ChildParameters

    /// The reply: the full path of the new top of the stack.
    public typealias Reply = PathReply
}
