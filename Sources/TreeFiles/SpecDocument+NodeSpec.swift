import StateContainers

extension SpecDocument {
    /// Reads a node and its subtree straight from the document, to what `NodeSpec`'s
    /// `init(from:)` decodes from it, or nil where that decoding would have anything to say:
    /// an unknown key, a value of another shape, too deep a nesting. Start-up reads every node
    /// this way so that its cost follows the file's size, not the generic decoding of each
    /// key through `Decoder`'s containers; a node this returns nil for is decoded instead,
    /// which names its problems as for any other file.
    /// - Parameters:
    ///   - value: The node's mapping.
    ///   - depth: How deep the node is nested, as `NodeSpec.depth(at:)` counts it.
    package func node(_ value: Value, depth: Int) -> NodeSpec? {
        guard depth <= NodeSpec.maximumDepth, let members = members(of: value) else { return nil }
        var type: String?
        var id: String?
        var restorationId: String??
        var node = NodeSpec(kind: Controller.Kind.self, id: "")
        for (name, member) in members {
            switch name {
            case "type": type = string(member)
            case "id": id = string(member)
            case "title":
                guard let title = optional(member, string) else { return nil }
                node.title = title
            case "url":
                guard let url = optional(member, string) else { return nil }
                node.url = url
            case "restorationId":
                guard let value = optional(member, string) else { return nil }
                restorationId = value
            case "children":
                guard let children = optional(member, { nodes($0, depth: depth + 1) }) else { return nil }
                node.children = children ?? []
            default:
                guard let key = ControllerKinds.keysByName[name], let value = optional(member, { self.value($0, of: key, depth: depth) }) else {
                    return nil
                }
                node.values[name] = value
            }
        }
        guard let type, let id else { return nil }
        node.type = type
        node.id = id
        node.restorationId = restorationId ?? id
        return node
    }

    /// What `decodeIfPresent` gives for a present key: nil inside for null, the value `read`
    /// reads otherwise, or nil outside where it would throw.
    private func optional<T>(_ member: Value, _ read: (Value) -> T?) -> T?? {
        isNull(member) ? .some(nil) : read(member).map { .some($0) }
    }

    /// The nodes of a list, or nil unless each is read whole.
    private func nodes(_ list: Value, depth: Int) -> [NodeSpec]? {
        guard let elements = elements(of: list) else { return nil }
        var nodes: [NodeSpec] = []
        nodes.reserveCapacity(elements.count)
        for element in elements {
            guard let node = node(element, depth: depth) else { return nil }
            nodes.append(node)
        }
        return nodes
    }

    /// The value of one of the kinds' keys, read as the type it declares.
    private func value(_ member: Value, of key: NodeKey, depth: Int) -> NodeValue? {
        switch key.type {
        case .number: number(member).map(NodeValue.number)
        case .integer: number(member).flatMap(Int.init(exactly:)).map(NodeValue.integer)
        case .string: string(member).map(NodeValue.string)
        case .nodes: nodes(member, depth: depth + 1).map(NodeValue.nodes)
        }
    }
}
