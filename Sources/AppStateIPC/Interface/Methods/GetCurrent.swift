import AppStateCore

/// `io.appstate.GetCurrent(path: ?string) -> (path: string, node: Node)`: which child is
/// current, for the whole tree (deepest chain) or for one container.
public enum GetCurrent: VarlinkMethod {
    /// `io.appstate.GetCurrent`.
    public static let name = AppStateMethod.getCurrent.rawValue

    /// The parameters: the container whose current child to return; `nil` for the deepest current chain.
    public typealias Parameters = PathParameters

    /// The reply.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = ["path", "node"]

        /// The full path of the current child.
        public var path: String
        /// The current child.
        public var node: Node

        /// Creates the reply.
        /// - Parameters:
        ///   - path: The full path of the current child.
        ///   - node: The current child.
        public init(path: String, node: Node) {
            self.path = path
            self.node = node
        }
    }
}
