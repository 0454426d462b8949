import AppStateCore

/// The parameters of the `io.appstate` methods that take nothing but the optional tree
/// name: ``GetTree``, ``Logout``, ``Watch``, ``GetStats`` and ``GetMetrics``.
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

    /// Decodes the parameters by hand rather than through the derived decoding: every read
    /// the daemon answers at once decodes one, and the derived decoding's generic containers
    /// and key lookups would weigh on each of them.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        try VarlinkObjectDecoder.checkDeclared(Self.memberNames, parameters)
        tree = try VarlinkObjectDecoder.optionalString("tree", in: parameters)
    }
}
