extension Node {
    /// Finds a node of this subtree by its full path.
    /// - Parameter path: The full path, e.g. `session/home/pages`.
    /// - Returns: The node, or `nil` when the subtree has none at that path.
    public func node(atPath path: String) -> Node? {
        if self.path == path { return self }
        for child in children where path.hasPrefix(child.path) {
            if let found = child.node(atPath: path) { return found }
        }
        return nil
    }

    /// The path of the deepest chain of current children from this node: what
    /// `GetCurrent` without a path answers when this is the root.
    public var deepestCurrentPath: String {
        guard let current, let child = children.first(where: { $0.identifier == current }) else { return path }
        return child.deepestCurrentPath
    }
}
