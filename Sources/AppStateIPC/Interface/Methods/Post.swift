import AppStateCore

/// `io.appstate.Post(name: string, userInfo: ?object) -> ()`: posts a notification on a
/// tree's bus.
public enum Post: VarlinkMethod {
    /// `io.appstate.Post`.
    public static let name = AppStateMethod.post.rawValue

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "name", "userInfo"]

        /// The tree whose bus to post on; the first tree when `nil`.
        public var tree: String?
        /// The notification name; the daemon checks that it prints on one line.
        public var name: String
        /// The notification's userInfo.
        public var userInfo: [String: JSONValue]?

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree whose bus to post on; the first tree when `nil`.
        ///   - name: The notification name.
        ///   - userInfo: The notification's userInfo.
        public init(tree: String? = nil, name: String, userInfo: [String: JSONValue]? = nil) {
            self.tree = tree
            self.name = name
            self.userInfo = userInfo
        }

        /// Decodes the parameters.
        /// - Parameter parameters: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter;
        ///   nothing about the name itself, which the daemon judges.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Parameters.memberNames)
            tree = try reader.optionalString("tree")
            name = try reader.string("name")
            userInfo = try reader.optionalObject("userInfo")
        }

        /// The parameters for encoding.
        public var parameters: [String: JSONValue] {
            var members: [String: JSONValue] = ["name": .string(name)]
            members["tree"] = tree.map(JSONValue.string)
            members["userInfo"] = userInfo.map(JSONValue.object)
            return members
        }
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
