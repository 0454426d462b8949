import AppStateCore

/// The parameters of methods that take an optional tree and an optional container path:
/// `GetCurrent(path: ?string)` and `Pop(path: ?string)`.
public struct PathParameters: VarlinkObject {
    /// The members the methods declare.
    public static let memberNames = ["tree", "path"]

    /// The tree; the first tree when `nil`.
    public var tree: String?
    /// The container; `nil` for the method's default (the deepest current chain, the first navigation container).
    public var path: String?

    /// Creates the parameters.
    /// - Parameters:
    ///   - tree: The tree; the first tree when `nil`.
    ///   - path: The container; `nil` for the method's default.
    public init(tree: String? = nil, path: String? = nil) {
        self.tree = tree
        self.path = path
    }

    /// Decodes the parameters.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let reader = try ParameterReader(parameters, declared: PathParameters.memberNames)
        tree = try reader.optionalString("tree")
        path = try reader.optionalString("path")
    }

    /// The parameters for encoding.
    public var parameters: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        members["tree"] = tree.map(JSONValue.string)
        members["path"] = path.map(JSONValue.string)
        return members
    }
}
