/// The keyed container of a mapping of either format: the keys it holds, in the document's
/// order, and how the format looks one up (a JSON object by its member, a YAML mapping by its
/// last pair of that key, merge keys applied).
struct MappingDecodingContainer<NodeDecoder: ElementDecoder, Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    /// The text of every key the mapping holds; keys that are collections have none.
    let keys: [String]
    /// The value of a key, as the format looks it up.
    let value: (_ key: String) -> NodeDecoder.Element?

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// Every key of the mapping that `Key` can name.
    var allKeys: [Key] { keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { value(key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        try decoder(for: key).decodeNil()
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder(for: key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try decoder(for: FileCodingKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder(for: key)
    }

    private func decoder(for key: any CodingKey) throws -> NodeDecoder {
        guard let value = value(key.stringValue) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \"\(key.stringValue)\"."))
        }
        return decoder.decoder(for: value, at: key)
    }
}
