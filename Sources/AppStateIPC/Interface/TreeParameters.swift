import AppStateCore

/// The parameters of the `io.appstate` methods that take nothing but the optional tree
/// name: ``GetTree``, ``Logout``, ``Watch`` and ``GetStats``.
public struct TreeParameters: VarlinkObject {
    /// The members these methods declare.
    public static let memberNames = ["tree"]

    /// The tree to act on; the first tree when `nil`.
    public var tree: String?

    /// Creates the parameters.
    /// - Parameter tree: The tree to act on; the first tree when `nil`.
    public init(tree: String? = nil) {
        self.tree = tree
    }

    /// Decodes the parameters.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let reader = try ParameterReader(parameters, declared: TreeParameters.memberNames)
        tree = try reader.optionalString("tree")
    }

    /// The parameters for encoding.
    public var parameters: [String: JSONValue] {
        tree.map { ["tree": .string($0)] } ?? [:]
    }
}
