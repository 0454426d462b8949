import AppStateCore

/// An object with no members: the reply of methods that only acknowledge (`-> ()`), and
/// the parameters of methods that take none.
public struct EmptyParameters: VarlinkObject {
    /// No members.
    public static let memberNames: [String] = []

    /// Creates the empty object.
    public init() {}

    /// No members, said at once rather than derived: it is the reply of every change a UI
    /// makes many times a second (a keyboard moved, a window resized).
    public var parameters: [String: JSONValue] { [:] }
}
