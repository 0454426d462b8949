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

        /// Decodes the reply.
        /// - Parameter parameters: The reply's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Reply.memberNames)
            root = try reader.object("root", as: Node.self)
        }

        /// The reply's parameters.
        public var parameters: [String: JSONValue] { ["root": .object(root.parameters)] }
    }
}
