import AppStateCore

/// A change to a tree as the `io.appstate.Event` type carries it in `Watch` replies.
public struct Event: VarlinkObject {
    /// The members of `io.appstate.Event`.
    public static let memberNames = ["tree", "name", "path", "current", "userInfo"]

    /// The name of the tree that changed.
    public var tree: String
    /// The method (e.g. `Login`) or bus notification (e.g. `session.didLogIn`) that caused the
    /// change, or `transition.didEnd` when an animated swap a change started has finished.
    public var name: String
    /// The path of the container that changed, when the change has one.
    public var path: String?
    /// The deepest chain of current children after the change.
    public var current: String
    /// The userInfo of the notification that caused the change.
    public var userInfo: [String: JSONValue]?

    /// Creates an event.
    /// - Parameters:
    ///   - tree: The name of the tree that changed.
    ///   - name: The method or notification that caused the change.
    ///   - path: The path of the container that changed.
    ///   - current: The deepest chain of current children after the change.
    ///   - userInfo: The userInfo of the notification that caused the change.
    public init(tree: String, name: String, path: String? = nil, current: String, userInfo: [String: JSONValue]? = nil) {
        self.tree = tree
        self.name = name
        self.path = path
        self.current = current
        self.userInfo = userInfo
    }

    /// The event's members, written by hand rather than derived, like ``Node``'s: every change
    /// encodes one for each subscription, on the way from the call to its watchers.
    public var parameters: [String: JSONValue] {
        var members: [String: JSONValue] = ["tree": .string(tree), "name": .string(name), "current": .string(current)]
        members["path"] = path.map(JSONValue.string)
        members["userInfo"] = userInfo.map(JSONValue.object)
        return members
    }
}
