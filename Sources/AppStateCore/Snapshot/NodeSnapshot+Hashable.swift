extension NodeSnapshot {
    /// Whether two nodes are equal, subtrees included; nodes that share their box are, at once.
    /// - Parameters:
    ///   - lhs: A snapshot node.
    ///   - rhs: Another snapshot node.
    public static func == (lhs: NodeSnapshot, rhs: NodeSnapshot) -> Bool {
        lhs.isIdentical(to: rhs) || (lhs.hasSameOwnMembers(as: rhs) && lhs.children == rhs.children)
    }

    /// Hashes every member, children included.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(type)
        hasher.combine(identifier)
        hasher.combine(title)
        hasher.combine(appearance)
        hasher.combine(frame)
        hasher.combine(contentInset)
        hasher.combine(onScreen)
        hasher.combine(current)
        hasher.combine(pageIndex)
        hasher.combine(pageCount)
        hasher.combine(user)
        hasher.combine(locked)
        hasher.combine(menuVisible)
        hasher.combine(keyboardOverlap)
        hasher.combine(contentState)
        hasher.combine(children)
    }
}
