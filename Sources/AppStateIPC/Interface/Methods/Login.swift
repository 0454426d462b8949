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

        private enum CodingKeys: String, CodingKey {
            case tree, user, switching = "switch"
        }

        /// Decodes the parameters; an absent `switch` is false.
        /// - Parameter decoder: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            tree = try container.decodeIfPresent(String.self, forKey: .tree)
            user = try container.decode(String.self, forKey: .user)
            switching = try container.decodeIfPresent(Bool.self, forKey: .switching) ?? false
        }

        /// Encodes the parameters; `switch` only when set.
        /// - Parameter encoder: Where the members go.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(tree, forKey: .tree)
            try container.encode(user, forKey: .user)
            if switching { try container.encode(true, forKey: .switching) }
        }
    }

    /// The reply.
    public typealias Reply = PathReply
}
