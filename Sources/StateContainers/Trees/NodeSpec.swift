/// One controller of a tree file and, through ``children``, its subtree.
///
/// In a file (YAML shown; JSON has the same keys):
/// ```yaml
/// type: PaginatedController   # one of the kinds of ControllerKinds
/// id: pages                   # required: the identifier, a path segment
/// title: Pages                # optional
/// url: https://kiosk.example/pages   # optional: an http, https or file URL
/// restorationId: pages        # optional: defaults to id; null takes the node out of restoration
/// transitionMs: 250           # a key of the kind (see ControllerKind.keys)
/// children:                   # what they mean depends on the kind, see ``children``
///   - { type: Controller, id: overview }
/// ```
/// Decoding reads any value of the right shape; ``TreeFile/validate()`` (which the decoders and
/// the builder run) checks the rest and names each problem by its place in the file.
public struct NodeSpec: Hashable, Sendable {
    /// The deepest a node may be nested: far beyond any screen hierarchy, and low enough that
    /// no input can exhaust the stack of the recursive decoder, validator and builder.
    public static let maximumDepth = 32

    /// The kind of controller, one of the ``ControllerKind/typeName``s of ``ControllerKinds``;
    /// anything else is reported by validation.
    public var type: String
    /// The controller's identifier: non-empty, without `/`, unique among its siblings.
    public var id: String
    /// The controller's title.
    public var title: String?
    /// The page a kiosk browser shows for this screen: an `http:`, `https:` or `file:` URL,
    /// which validation checks (``urlProblem(_:key:)``); nil for none. Any node may give one.
    public var url: String?
    /// The controller's restoration identifier; nil takes it (and so its subtree) out of
    /// restoration. A file that leaves the key out gets ``id``, so that every tree restores
    /// out of the box; `restorationId: null` gives nil.
    public var restorationId: String?
    /// The children, which the kind's ``ControllerKind/children`` rule says the number and
    /// meaning of: a login-state container's logged-out, logged-in and lock screens, a
    /// paginated container's pages, a split container's primary and secondary.
    public var children: [NodeSpec]
    /// The values of the keys of its kind (``ControllerKind/keys``), by key name.
    public var values: [String: NodeValue]

    /// Creates a node with its restoration identifier equal to its identifier, as a file that
    /// leaves it out gets; the other properties can be set afterwards.
    /// - Parameters:
    ///   - kind: The kind of controller.
    ///   - id: The identifier.
    ///   - title: The title.
    ///   - children: The children; see ``children`` for what they mean for each kind.
    public init(kind: any ControllerKind.Type, id: String, title: String? = nil, children: [NodeSpec] = []) {
        self.type = kind.typeName
        self.id = id
        self.title = title
        self.url = nil
        self.restorationId = id
        self.children = children
        self.values = [:]
    }

    /// The kind of controller, when ``type`` names one.
    public var kind: (any ControllerKind.Type)? { ControllerKinds.kind(named: type) }

    /// The value of a key, when the node gives it.
    public subscript(key: NodeKey) -> NodeValue? {
        get { values[key.name] }
        set { values[key.name] = newValue }
    }

    /// The value of a number key, when the node gives it.
    /// - Parameter key: A key of type ``NodeKey/ValueType/number``.
    public func number(_ key: NodeKey) -> Double? {
        if case .number(let number)? = self[key] { number } else { nil }
    }

    /// The value of a whole-number key, when the node gives it.
    /// - Parameter key: A key of type ``NodeKey/ValueType/integer``.
    public func integer(_ key: NodeKey) -> Int? {
        if case .integer(let integer)? = self[key] { integer } else { nil }
    }

    /// The value of a string key, when the node gives it.
    /// - Parameter key: A key of type ``NodeKey/ValueType/string``.
    public func string(_ key: NodeKey) -> String? {
        if case .string(let text)? = self[key] { text } else { nil }
    }

    /// The nodes of a list-of-nodes key; empty when the node gives none.
    /// - Parameter key: A key of type ``NodeKey/ValueType/nodes``.
    public func nodes(_ key: NodeKey) -> [NodeSpec] {
        if case .nodes(let nodes)? = self[key] { nodes } else { [] }
    }

    /// The duration of the container's animated swaps, when the node gives ``NodeKey/transitionMs``.
    public var transitionDuration: Duration? {
        integer(.transitionMs).map { .milliseconds($0) }
    }

    /// Every subtree the node holds besides its children, with its place: the nodes of its
    /// list-of-nodes keys, in key order.
    var subtrees: [(place: [TreeFileError.PathComponent], node: NodeSpec)] {
        values.sorted { $0.key < $1.key }.flatMap { name, value -> [([TreeFileError.PathComponent], NodeSpec)] in
            guard case .nodes(let nodes) = value else { return [] }
            return nodes.enumerated().map { ([.key(name), .index($0.offset)], $0.element) }
        }
    }
}

extension NodeSpec: Codable {
    /// Every key a node may hold, in the order the format documents them: what names the node,
    /// the kinds' keys with a single value, then the subtrees (its children, then the kinds'
    /// lists of nodes).
    static let keyNames =
        ["type", "id", "title", "url", "restorationId"]
        + ControllerKinds.keys.filter { $0.type != .nodes }.map(\.name) + ["children"]
        + ControllerKinds.keys.filter { $0.type == .nodes }.map(\.name)
    /// ``keyNames`` as a set, made once rather than for each node of a large tree.
    static let keyNameSet = Set(keyNames)
    /// The keys whose value is a list of nodes: each is one level of nesting.
    static let nestingKeys = Set(["children"] + ControllerKinds.keys.filter { $0.type == .nodes }.map(\.name))

    /// How deep a node at `codingPath` is nested: one level for each list of nodes on the
    /// way, the children or a kind's list.
    /// - Parameter codingPath: The decoder's coding path at the node.
    package static func depth(at codingPath: [any CodingKey]) -> Int {
        codingPath.count { $0.intValue == nil && nestingKeys.contains($0.stringValue) }
    }

    /// Decodes a node, rejecting unknown keys and nesting deeper than ``maximumDepth``. Each
    /// key of a kind is read as the type it declares, whichever kind the node is of:
    /// validation then reports a key given to a kind that does not take it.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing `type` or `id`, too
    ///   deep a nesting, or an unknown key when the decoder collects none (see ``TreeFile/decode(using:)``).
    public init(from decoder: any Decoder) throws {
        guard Self.depth(at: decoder.codingPath) <= Self.maximumDepth else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "nodes nest more than \(Self.maximumDepth) levels deep"))
        }
        let container = try decoder.strictContainer(expecting: Self.keyNames, known: Self.keyNameSet)
        func key(_ name: String) -> AnyCodingKey { AnyCodingKey(stringValue: name) }
        type = try container.decode(String.self, forKey: key("type"))
        id = try container.decode(String.self, forKey: key("id"))
        title = try container.decodeIfPresent(String.self, forKey: key("title"))
        url = try container.decodeIfPresent(String.self, forKey: key("url"))
        // Absent means "same as id" and null means "none": the two must be told apart here,
        // as `decodeIfPresent` reads both as nil.
        if container.contains(key("restorationId")) {
            restorationId = try container.decodeNil(forKey: key("restorationId")) ? nil : container.decode(String.self, forKey: key("restorationId"))
        } else {
            restorationId = id
        }
        children = try container.decodeIfPresent([NodeSpec].self, forKey: key("children")) ?? []
        values = [:]
        // Only the keys the node holds: a node of a large tree holds few of the kinds' keys.
        let present = Set(container.allKeys.map(\.stringValue))
        for nodeKey in ControllerKinds.keys where present.contains(nodeKey.name) {
            let codingKey = key(nodeKey.name)
            let value: NodeValue? =
                switch nodeKey.type {
                case .number: try container.decodeIfPresent(Double.self, forKey: codingKey).map(NodeValue.number)
                case .integer: try container.decodeIntegerIfPresent(forKey: codingKey).map(NodeValue.integer)
                case .string: try container.decodeIfPresent(String.self, forKey: codingKey).map(NodeValue.string)
                case .nodes: try container.decodeIfPresent([NodeSpec].self, forKey: codingKey).map(NodeValue.nodes)
                }
            values[nodeKey.name] = value
        }
    }

    /// Encodes the node as a file would hold it, leaving out what takes the default.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        func key(_ name: String) -> AnyCodingKey { AnyCodingKey(stringValue: name) }
        try container.encode(type, forKey: key("type"))
        try container.encode(id, forKey: key("id"))
        try container.encodeIfPresent(title, forKey: key("title"))
        try container.encodeIfPresent(url, forKey: key("url"))
        if restorationId != id { try container.encode(restorationId, forKey: key("restorationId")) }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .number(let number): try container.encode(number, forKey: key(name))
            case .integer(let integer): try container.encode(integer, forKey: key(name))
            case .string(let text): try container.encode(text, forKey: key(name))
            case .nodes(let nodes): try container.encode(nodes, forKey: key(name))
            }
        }
        if !children.isEmpty { try container.encode(children, forKey: key("children")) }
    }
}
