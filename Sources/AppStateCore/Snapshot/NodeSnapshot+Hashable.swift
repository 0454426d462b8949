extension NodeSnapshot {
    /// Whether two nodes are equal, subtrees included; nodes that share their box are, at once.
    /// - Parameters:
    ///   - lhs: A snapshot node.
    ///   - rhs: Another snapshot node.
    public static func == (lhs: NodeSnapshot, rhs: NodeSnapshot) -> Bool {
        lhs.isIdentical(to: rhs) || lhs.storage.members == rhs.storage.members
    }

    /// Hashes every member, children included.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.members)
    }
}
