import AppStateCore

/// An object with no members: the reply of methods that only acknowledge (`-> ()`), and
/// the parameters of methods that take none.
public struct EmptyParameters: VarlinkObject {
    /// No members.
    public static let memberNames: [String] = []

    /// Creates the empty object.
    public init() {}

    /// Accepts only an empty object.
    /// - Parameter parameters: The object's members.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the first member, if any.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        _ = try ParameterReader(parameters, declared: EmptyParameters.memberNames)
    }

    /// No members.
    public var parameters: [String: JSONValue] { [:] }
}
