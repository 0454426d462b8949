/// The unkeyed container of a YAML sequence.
struct YAMLUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: YAMLNodeDecoder
    let items: [Int]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }
    private(set) var currentIndex = 0

    init(decoder: YAMLNodeDecoder, items: [Int]) {
        self.decoder = decoder
        self.items = items
    }

    mutating func decodeNil() throws -> Bool {
        // The protocol's rule: the index moves past a null only.
        guard try current(Never?.self).decodeNil() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try current(type).decode(type)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try current(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try current((any UnkeyedDecodingContainer).self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try current((any Decoder).self)
        currentIndex += 1
        return decoder
    }

    /// The decoder of the current item; at the end, the error for the `type` expected there.
    private func current(_ type: Any.Type) throws -> YAMLNodeDecoder {
        let key = YAMLCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        return decoder.decoder(for: items[currentIndex], at: key)
    }
}
