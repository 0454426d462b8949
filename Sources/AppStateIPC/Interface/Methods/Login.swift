import AppStateCore

/// `io.appstate.Login(user: string, switch: ?bool) -> (path: string)`: logs a user in on
/// a tree's login-state container.
public enum Login: VarlinkMethod {
    /// `io.appstate.Login`.
    public static let name = AppStateMethod.login.rawValue

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "user", "switch"]

        /// The tree to change; the first tree when `nil`.
        public var tree: String?
        /// The user to log in; the login container checks the name.
        public var user: String
        /// Whether to replace a different user already logged in (the wire's `switch`).
        public var switching: Bool

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree to change; the first tree when `nil`.
        ///   - user: The user to log in.
        ///   - switching: Whether to replace a different user already logged in.
        public init(tree: String? = nil, user: String, switching: Bool = false) {
            self.tree = tree
            self.user = user
            self.switching = switching
        }

        /// Decodes the parameters.
        /// - Parameter parameters: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter;
        ///   nothing about the name itself, which is the model's to judge.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Parameters.memberNames)
            tree = try reader.optionalString("tree")
            user = try reader.string("user")
            switching = try reader.optionalBool("switch") ?? false
        }

        /// The parameters for encoding; `switch` only when set.
        public var parameters: [String: JSONValue] {
            var members: [String: JSONValue] = ["user": .string(user)]
            members["tree"] = tree.map(JSONValue.string)
            if switching { members["switch"] = .bool(true) }
            return members
        }
    }

    /// The reply.
    public typealias Reply = PathReply
}
