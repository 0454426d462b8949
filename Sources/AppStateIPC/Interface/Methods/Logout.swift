import AppStateCore

/// `io.appstate.Logout() -> (changed: bool, path: string)`: logs the current user out of
/// a tree's login-state container.
public enum Logout: VarlinkMethod {
    /// `io.appstate.Logout`.
    public static let name = AppStateMethod.logout.rawValue

    /// The parameters: only the optional tree name.
    public typealias Parameters = TreeParameters

    /// The reply.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = ["changed", "path"]

        /// False when nobody was logged in.
        public var changed: Bool
        /// The full path of the child shown after logging out.
        public var path: String

        /// Creates the reply.
        /// - Parameters:
        ///   - changed: False when nobody was logged in.
        ///   - path: The full path of the child shown after logging out.
        public init(changed: Bool, path: String) {
            self.changed = changed
            self.path = path
        }
    }
}
