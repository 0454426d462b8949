/// The keyed container of a YAML mapping, merge keys applied; a key given twice (by a merge
/// and the mapping itself) is the mapping's own.
struct YAMLKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: YAMLNodeDecoder
    let pairs: [YAMLNode.Pair]

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// Every scalar key that `Key` can name, in file order; keys that are collections name nothing.
    var allKeys: [Key] {
        pairs.compactMap { decoder.document[$0.key].scalar.flatMap { Key(stringValue: $0.text) } }
    }

    func contains(_ key: Key) -> Bool { value(for: key) != nil }

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

    /// The value of the last pair of the key, as Yams looks keys up.
    private func value(for key: any CodingKey) -> Int? {
        pairs.last { decoder.document.isKey($0.key, named: key.stringValue) }?.value
    }

    private func decoder(for key: any CodingKey) throws -> YAMLNodeDecoder {
        guard let value = value(for: key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \"\(key.stringValue)\"."))
        }
        return decoder.decoder(for: value, at: key)
    }
}
