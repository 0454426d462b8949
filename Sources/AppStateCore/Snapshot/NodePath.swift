/// How a path names a node: identifiers from the tree's root joined by `/`, such as
/// `session/home/pages/settings`. One lookup serves the live controllers and their
/// snapshots, so both accept exactly the same spellings.
///
/// Only the canonical spelling names a node: no segment is empty, so `/session`,
/// `session/` and `session//home` are not other names of `session` and `session/home`.
public enum NodePath {
    /// The node at `relativePath` below `node` (`home/pages`), or `node` itself for an
    /// empty path; nil when no node has that path.
    /// - Parameters:
    ///   - relativePath: Identifiers below `node`, joined by `/`.
    ///   - node: Where the path starts.
    ///   - identifier: A node's identifier.
    ///   - children: The children a path may step into.
    @inlinable public static func descendant<Node>(
        at relativePath: Substring, of node: Node, identifier: (Node) -> String,
        children: (Node) -> [Node]
    ) -> Node? {
        // Inlinable, so that each caller's specialisation steps through a container's children
        // without a call through the closures for each: a change names its container by path.
        guard !relativePath.isEmpty else { return node }
        var current = node
        for segment in relativePath.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, let child = children(current).first(where: { identifier($0) == segment }) else { return nil }
            current = child
        }
        return current
    }

    /// What is left of `path` below the node at `base`: empty for `base` itself, nil when
    /// `path` is not `base` or below it.
    /// - Parameters:
    ///   - path: A full path.
    ///   - base: The full path of the node to start from.
    public static func relative(_ path: String, below base: String) -> Substring? {
        guard path.hasPrefix(base) else { return nil }
        let rest = path.dropFirst(base.count)
        if rest.isEmpty { return rest }
        guard rest.first == "/" else { return nil }
        // `base/` names nothing: an empty last segment is not canonical.
        let below = rest.dropFirst()
        return below.isEmpty ? nil : below
    }
}
