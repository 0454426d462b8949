import StateContainers

/// A `Decoder` over one node of a ``YAMLDocument``: what Yams' `YAMLDecoder` does for the
/// tree-file spec types, with the same errors (so that problems read the same), merge keys
/// applied to mappings and scalars read by Yams' rules (``YAMLNode/Scalar``).
struct YAMLNodeDecoder: ElementDecoder {
    let document: YAMLDocument
    let node: Int
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    /// Decodes a value from a whole document.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - document: The document.
    ///   - userInfo: What the decoded types find in `userInfo`.
    /// - Throws: `DecodingError`, or what the type's initialiser throws.
    static func decode<T: Decodable>(_ type: T.Type, from document: YAMLDocument, userInfo: [CodingUserInfoKey: Any]) throws -> T {
        try YAMLNodeDecoder(document: document, node: document.root, codingPath: [], userInfo: userInfo).decode(type)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let mapping) = document[node].content else { throw mismatch(YAMLNode.Mapping.self) }
        // A key given twice (by a merge and the mapping itself) is the mapping's own, as Yams
        // looks keys up: the last pair of it.
        let pairs = document.pairsMerged(of: mapping)
        return KeyedDecodingContainer(
            MappingDecodingContainer<Self, Key>(
                decoder: self, keys: pairs.compactMap { document[$0.key].scalar?.text },
                value: { [document] name in pairs.last { document.isKey($0.key, named: name) }?.value }))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .sequence(let sequence) = document[node].content else { throw mismatch(YAMLNode.Sequence.self) }
        return ListDecodingContainer(decoder: self, items: sequence.items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The decoder of a node below this one.
    func decoder(for node: Int, at key: any CodingKey) -> YAMLNodeDecoder {
        YAMLNodeDecoder(document: document, node: node, codingPath: codingPath + [key], userInfo: userInfo)
    }

    /// The error for a node that is not what `expected` needs, worded as Yams words it.
    func mismatch(_ expected: Any.Type) -> DecodingError {
        .typeMismatch(
            expected, .init(codingPath: codingPath, debugDescription: "Expected to decode \(expected) but found another kind of node instead."))
    }
}

extension YAMLNodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        document[node].scalar?.isNull ?? false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try cast(scalar().text)
        case is Bool.Type: return try cast(construct(Bool.self) { $0.bool })
        case is Double.Type: return try cast(construct(Double.self) { $0.floatingPoint(Double.self) })
        case is Float.Type: return try cast(construct(Float.self) { $0.floatingPoint(Float.self) })
        case is Int.Type: return try cast(integer(Int.self))
        case is Int8.Type: return try cast(integer(Int8.self))
        case is Int16.Type: return try cast(integer(Int16.self))
        case is Int32.Type: return try cast(integer(Int32.self))
        case is Int64.Type: return try cast(integer(Int64.self))
        case is UInt.Type: return try cast(integer(UInt.self))
        case is UInt8.Type: return try cast(integer(UInt8.self))
        case is UInt16.Type: return try cast(integer(UInt16.self))
        case is UInt32.Type: return try cast(integer(UInt32.self))
        case is UInt64.Type: return try cast(integer(UInt64.self))
        case is NodeSpec.Type:
            let spec = document.node(node, depth: NodeSpec.depth(at: codingPath))
            return try spec.map(cast) ?? T(from: self)
        default: return try T(from: self)
        }
    }

    /// The node's scalar; any other node is a mismatch for a single value.
    private func scalar() throws -> YAMLNode.Scalar {
        guard let scalar = document[node].scalar else { throw mismatch(YAMLNode.Scalar.self) }
        return scalar
    }

    private func construct<V>(_ type: V.Type, _ value: (YAMLNode.Scalar) -> V?) throws -> V {
        guard let value = try value(scalar()) else { throw mismatch(type) }
        return value
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        try construct(type) { $0.integer(type) }
    }

    /// `value` as `T`, which `decode(_:)` has checked it is.
    private func cast<V, T>(_ value: V) throws -> T {
        guard let value = value as? T else { throw mismatch(T.self) }
        return value
    }
}
