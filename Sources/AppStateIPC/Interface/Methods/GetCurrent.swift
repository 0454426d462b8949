import StateContainers

/// `io.appstate.GetCurrent(path: ?string) -> (path: string, node: Node)`: which child is
/// current, for the whole tree (deepest chain) or for one container.
public enum GetCurrent: VarlinkMethod {
    /// `io.appstate.GetCurrent`.
    public static let name = AppStateMethod.getCurrent.rawValue

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "path"]

        /// The tree to read; the first tree when `nil`.
        public var tree: String?
        /// The container whose current child to return; `nil` for the deepest current chain.
        public var path: String?

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree to read; the first tree when `nil`.
        ///   - path: The container; `nil` for the deepest current chain.
        public init(tree: String? = nil, path: String? = nil) {
            self.tree = tree
            self.path = path
        }

        /// Decodes the parameters.
        /// - Parameter parameters: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Parameters.memberNames)
            tree = try reader.optionalString("tree")
            path = try reader.optionalString("path")
        }

        /// The parameters for encoding.
        public var parameters: [String: JSONValue] {
            var members: [String: JSONValue] = [:]
            members["tree"] = tree.map(JSONValue.string)
            members["path"] = path.map(JSONValue.string)
            return members
        }
    }

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

        /// Decodes the reply.
        /// - Parameter parameters: The reply's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Reply.memberNames)
            path = try reader.string("path")
            node = try reader.object("node", as: Node.self)
        }

        /// The reply's parameters.
        public var parameters: [String: JSONValue] { ["path": .string(path), "node": .object(node.parameters)] }
    }
}
