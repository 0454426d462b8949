import AppStateCore

/// The parameters of the methods that name a child of a container: ``SelectMenuItem``
/// (a menu item) and ``Push`` (a controller to push).
public struct ChildParameters: VarlinkObject {
    /// The members these methods declare.
    public static let memberNames = ["tree", "path", "id"]

    /// The tree to change; the first tree when `nil`.
    public var tree: String?
    /// The container; the first container of the method's kind in the tree when `nil`.
    public var path: String?
    /// The identifier of the child.
    public var id: String

    /// Creates the parameters.
    /// - Parameters:
    ///   - tree: The tree to change; the first tree when `nil`.
    ///   - path: The container; the first of the method's kind when `nil`.
    ///   - id: The identifier of the child.
    public init(tree: String? = nil, path: String? = nil, id: String) {
        self.tree = tree
        self.path = path
        self.id = id
    }

    /// Decodes the parameters.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let reader = try ParameterReader(parameters, declared: ChildParameters.memberNames)
        tree = try reader.optionalString("tree")
        path = try reader.optionalString("path")
        id = try reader.string("id")
    }

    /// The parameters for encoding.
    public var parameters: [String: JSONValue] {
        var members: [String: JSONValue] = ["id": .string(id)]
        members["tree"] = tree.map(JSONValue.string)
        members["path"] = path.map(JSONValue.string)
        return members
    }
}
