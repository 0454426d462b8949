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
}
