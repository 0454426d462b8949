import AppStateCore

/// `io.appstate.Watch() -> (event: ?Event, root: ?Node)`, called with `more`: the first
/// reply carries the tree, each later one a change and the tree after it.
public enum Watch: VarlinkMethod {
    /// `io.appstate.Watch`.
    public static let name = AppStateMethod.watch.rawValue

    /// Without `more` there is no stream to send, so the call answers `ExpectedMore`.
    public static let requiresMore = true

    /// The parameters: only the optional tree name.
    public typealias Parameters = TreeParameters

    /// One reply of the stream.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = ["event", "root"]

        /// The change; `nil` in the first reply.
        public var event: Event?
        /// The whole tree after the change.
        public var root: Node?

        /// Creates a reply.
        /// - Parameters:
        ///   - event: The change; `nil` in the first reply.
        ///   - root: The whole tree after the change.
        public init(event: Event? = nil, root: Node? = nil) {
            self.event = event
            self.root = root
        }
    }
}
