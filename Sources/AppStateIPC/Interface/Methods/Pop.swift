import StateContainers

/// `io.appstate.Pop(path: ?string) -> (path: string)`: pops the top controller off a
/// navigation container's stack (never the root).
public enum Pop: VarlinkMethod {
    /// `io.appstate.Pop`.
    public static let name = AppStateMethod.pop.rawValue

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "path"]

        /// The tree to change; the first tree when `nil`.
        public var tree: String?
        /// The navigation container; the first one in the tree when `nil`.
        public var path: String?

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree to change; the first tree when `nil`.
        ///   - path: The navigation container; the first one in the tree when `nil`.
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

    /// The reply: the full path of the new top of the stack.
    public typealias Reply = PathReply
}
