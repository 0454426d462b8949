/// A decoder of one value of a tree file that can make the decoders of the values below it:
/// what ``ListDecodingContainer`` needs of the YAML and the JSON decoder.
protocol ElementDecoder: Decoder, SingleValueDecodingContainer {
    /// How the decoder's document refers to a value.
    associatedtype Element

    /// The decoder of a value below this one.
    func decoder(for element: Element, at key: any CodingKey) -> Self
}

/// The unkeyed container of a YAML sequence or a JSON array.
struct ListDecodingContainer<NodeDecoder: ElementDecoder>: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [NodeDecoder.Element]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }
    private(set) var currentIndex = 0

    init(decoder: NodeDecoder, items: [NodeDecoder.Element]) {
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
    private func current(_ type: Any.Type) throws -> NodeDecoder {
        let key = FileCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        return decoder.decoder(for: items[currentIndex], at: key)
    }
}
