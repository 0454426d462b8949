import AppStateCore

/// `io.appstate.GetTree() -> (root: Node)`: a snapshot of a whole tree.
public enum GetTree: VarlinkMethod {
    /// `io.appstate.GetTree`.
    public static let name = AppStateMethod.getTree.rawValue

    /// The parameters: only the optional tree name.
    public typealias Parameters = TreeParameters

    /// The reply.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = ["root"]

        /// The root controller and all its descendants.
        public var root: Node

        /// Creates the reply.
        /// - Parameter root: The root controller and all its descendants.
        public init(root: Node) {
            self.root = root
        }
    }
}
