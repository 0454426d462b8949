import AppStateCore

/// An object with no members: the reply of methods that only acknowledge (`-> ()`), and
/// the parameters of methods that take none.
public struct EmptyParameters: VarlinkObject {
    /// No members.
    public static let memberNames: [String] = []

    /// Creates the empty object.
    public init() {}
}
