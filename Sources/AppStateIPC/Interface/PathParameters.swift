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

    /// Decodes the parameters by hand rather than through the derived decoding: every read
    /// the daemon answers at once decodes one, and the derived decoding's generic containers
    /// and key lookups would weigh on each of them.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        try VarlinkObjectDecoder.checkDeclared(Self.memberNames, parameters)
        tree = try VarlinkObjectDecoder.optionalString("tree", in: parameters)
        path = try VarlinkObjectDecoder.optionalString("path", in: parameters)
    }
}
