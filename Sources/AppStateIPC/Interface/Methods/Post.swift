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
    }

    /// The reply: an acknowledgement without members.
    public typealias Reply = EmptyParameters
}
