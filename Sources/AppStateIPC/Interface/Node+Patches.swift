import AppStateCore

extension NodeSnapshot {
    /// The node with a JSON Merge Patch (RFC 7386) of its members merged in, as `Watch`
    /// sends one in `patches`: each member of the patch replaces the node's, `null` takes an
    /// optional member away; the children stay.
    /// - Parameter patch: Members of `io.appstate.Node` but `children`.
    /// - Returns: The node with the patch merged.
    /// - Throws: `org.varlink.service.InvalidParameter` naming a member the patch gives a value
    ///   of the wrong type, takes away while it is required, or that a node does not have.
    public func merging(_ patch: [String: JSONValue]) throws(VarlinkError) -> Node {
        guard patch["children"] == nil else { throw .invalidParameter("children") }
        var members = ownMembers
        for (key, value) in patch { members[key] = value == .null ? nil : value }
        members["children"] = .array([])
        var merged = try Node(parameters: members)
        merged.children = children
        return merged
    }

    /// The tree (or subtree) a `Watch` reply says it now is, from this copy of it: the reply's
    /// root when it has one, else this copy with the reply's changes applied (removed, then
    /// changed, then patches).
    /// - Parameter reply: A later reply of the stream this copy follows.
    /// - Returns: The tree after the change.
    /// - Throws: `org.varlink.service.InvalidParameter` when a patch does not fit its node
    ///   (`merging(_:)`).
    public func applying(_ reply: Watch.Reply) throws(VarlinkError) -> Node {
        if let root = reply.root { return root }
        var patches: [String: [String: JSONValue]] = [:]
        for (path, patch) in reply.patches ?? [:] {
            guard case .object(let members) = patch else { throw .invalidParameter("patches.\(path)") }
            patches[path] = members
        }
        let changes = Changes(changed: reply.changed ?? [], removed: reply.removed ?? [], patches: patches)
        return try applying(changes) { node, patch throws(VarlinkError) in try node.merging(patch) }
    }
}
