import AppStateCore
import StateContainers

/// A `Decoder` over a ``JSONValue`` that ``JSONParser`` has already read: what Foundation's
/// `JSONDecoder` does for the tree-file spec types, with the same errors (so that problems read
/// the same), without parsing the text a second time. Like Foundation's decoder, it reads JSON
/// strictly (`"id": 3` is not a string) and a key named twice has its first value, as the
/// parser keeps it.
struct JSONValueDecoder: ElementDecoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    /// Decodes a value from a whole document.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The document.
    ///   - userInfo: What the decoded types find in `userInfo`.
    /// - Throws: `DecodingError`, or what the type's initialiser throws.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, userInfo: [CodingUserInfoKey: Any]) throws -> T {
        try JSONValueDecoder(value: value, codingPath: [], userInfo: userInfo).decode(type)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(MappingDecodingContainer<Self, Key>(decoder: self, keys: Array(members.keys), value: { members[$0] }))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return ListDecodingContainer(decoder: self, items: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The decoder of a value below this one.
    func decoder(for value: JSONValue, at key: any CodingKey) -> JSONValueDecoder {
        JSONValueDecoder(value: value, codingPath: codingPath + [key], userInfo: userInfo)
    }

    /// The error for a value that is not what `expected` needs: null is a missing value, as
    /// Foundation's decoder reports it, anything else a mismatch.
    func mismatch(_ expected: Any.Type) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: "Expected to decode \(expected).")
        return value == .null ? .valueNotFound(expected, context) : .typeMismatch(expected, context)
    }
}

extension JSONValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch (type, value) {
        case (is String.Type, .string(let text)): return try cast(text)
        case (is Bool.Type, .bool(let bool)): return try cast(bool)
        case (is Double.Type, .number(let number)): return try cast(number)
        case (is Int.Type, .number(let number)): return try cast(Int(exactly: number))
        case (is String.Type, _), (is Bool.Type, _), (is Double.Type, _), (is Int.Type, _): throw mismatch(type)
        case (is NodeSpec.Type, _):
            let node = JSONSpecDocument().node(value, depth: NodeSpec.depth(at: codingPath))
            return try node.map(cast) ?? T(from: self)
        default: return try T(from: self)
        }
    }

    /// `value` as `T`, which `decode(_:)` has checked it is; nil (an inexact integer) is a mismatch.
    private func cast<V, T>(_ value: V?) throws -> T {
        guard let value = value as? T else { throw mismatch(T.self) }
        return value
    }
}
