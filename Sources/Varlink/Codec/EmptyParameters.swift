import VarlinkJSON

/// An object with no members: the reply of methods that only acknowledge (`-> ()`), and
/// the parameters of methods that take none.
public struct EmptyParameters: VarlinkObject {
    /// No members.
    public static let memberNames: [String] = []

    /// Creates the empty object.
    public init() {}

    /// No members, said at once rather than derived: it may be the reply of calls a client
    /// makes many times a second.
    public var parameters: [String: JSONValue] { [:] }
}
