/// One controller of a tree file and, through ``children``, its subtree.
///
/// In a file (YAML shown; JSON has the same keys):
/// ```yaml
/// type: PaginatedController   # one of NodeType's names
/// id: pages                   # required: the identifier, a path segment
/// title: Pages                # optional
/// restorationId: pages        # optional: defaults to id; null takes the node out of restoration
/// transitionMs: 250           # containers that swap children only
/// children:                   # what they mean depends on the type, see ``children``
///   - { type: Controller, id: overview }
/// ```
/// Decoding reads any value of the right shape; ``TreeFile/validate()`` (which the decoders and
/// the builder run) checks the rest and names each problem by its place in the file.
public struct NodeSpec: Hashable, Sendable {
    /// The deepest a node may be nested: far beyond any screen hierarchy, and low enough that
    /// no input can exhaust the stack of the recursive decoder, validator and builder.
    public static let maximumDepth = 32

    /// The controller type, one of the ``NodeType`` raw values; anything else is reported by validation.
    public var type: String
    /// The controller's identifier: non-empty, without `/`, unique among its siblings.
    public var id: String
    /// The controller's title.
    public var title: String?
    /// The controller's restoration identifier; nil takes it (and so its subtree) out of
    /// restoration. A file that leaves the key out gets ``id``, so that every tree restores
    /// out of the box; `restorationId: null` gives nil.
    public var restorationId: String?
    /// The children, by type: a ``NodeType/loginState`` has two, logged out then logged in;
    /// a ``NodeType/keyboardAware`` one, its content; a ``NodeType/contentState`` at most one,
    /// what it renders; a ``NodeType/navigation`` its root then the screens pushed on it at
    /// start; paginated, menu and stack containers their pages, items and arranged children;
    /// a plain ``NodeType/controller`` none.
    public var children: [NodeSpec]
    /// A navigation controller's screens that `Push(id)` can create, each built afresh when pushed.
    public var destinations: [NodeSpec]
    /// A stack controller's spacing between its children.
    public var spacing: Double?
    /// A content-state controller's state at start: `loading`, `failed` or `render`. When left
    /// out it is `render` with a child and `loading` without.
    public var state: String?
    /// The failure message of a content-state controller whose ``state`` is `failed`.
    public var message: String?
    /// The duration of the container's animated swaps, in milliseconds, for the containers that
    /// have them (all but keyboard-aware and stack containers); the container's default when nil.
    public var transitionMs: Int?

    /// Creates a node with its restoration identifier equal to its identifier, as a file that
    /// leaves it out gets; the other properties can be set afterwards.
    /// - Parameters:
    ///   - type: The controller type.
    ///   - id: The identifier.
    ///   - title: The title.
    ///   - children: The children; see ``children`` for what they mean for each type.
    public init(type: NodeType, id: String, title: String? = nil, children: [NodeSpec] = []) {
        self.type = type.rawValue
        self.id = id
        self.title = title
        self.restorationId = id
        self.children = children
        self.destinations = []
    }

    /// The controller type, when ``type`` names one.
    public var nodeType: NodeType? { NodeType(rawValue: type) }

    /// The content state the node starts in, applying the default of ``state``.
    var effectiveState: String {
        state ?? (children.isEmpty ? ContentStateName.loading.rawValue : ContentStateName.render.rawValue)
    }

    /// The states a content-state node can start in.
    enum ContentStateName: String, CaseIterable {
        case loading, failed, render
    }
}

extension NodeSpec: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, id, title, restorationId, state, message, spacing, transitionMs, children, destinations
    }

    /// Decodes a node, rejecting unknown keys and nesting deeper than ``maximumDepth``.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing `type` or `id`, too
    ///   deep a nesting, or an unknown key when the decoder collects none (see ``TreeFile/decode(using:)``).
    public init(from decoder: any Decoder) throws {
        let depth = decoder.codingPath.count { $0.intValue == nil && ($0.stringValue == CodingKeys.children.stringValue || $0.stringValue == CodingKeys.destinations.stringValue) }
        guard depth <= Self.maximumDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "nodes nest more than \(Self.maximumDepth) levels deep"))
        }
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        // Absent means "same as id" and null means "none": the two must be told apart here,
        // as `decodeIfPresent` reads both as nil.
        if container.contains(.restorationId) {
            restorationId = try container.decodeNil(forKey: .restorationId) ? nil : container.decode(String.self, forKey: .restorationId)
        } else {
            restorationId = id
        }
        state = try container.decodeIfPresent(String.self, forKey: .state)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        spacing = try container.decodeIfPresent(Double.self, forKey: .spacing)
        transitionMs = try container.decodeIntegerIfPresent(forKey: .transitionMs)
        children = try container.decodeIfPresent([NodeSpec].self, forKey: .children) ?? []
        destinations = try container.decodeIfPresent([NodeSpec].self, forKey: .destinations) ?? []
    }

    /// Encodes the node as a file would hold it, leaving out what takes the default.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(title, forKey: .title)
        if restorationId != id { try container.encode(restorationId, forKey: .restorationId) }
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encodeIfPresent(spacing, forKey: .spacing)
        try container.encodeIfPresent(transitionMs, forKey: .transitionMs)
        if !children.isEmpty { try container.encode(children, forKey: .children) }
        if !destinations.isEmpty { try container.encode(destinations, forKey: .destinations) }
    }
}
