import VarlinkJSON

/// Encodes an `Encodable` value as the members of a Varlink object: the counterpart of
/// ``VarlinkObjectDecoder``. Optional members that are `nil` are left out; integers and
/// floating-point numbers become JSON numbers.
///
/// Values are written straight into the JSON value being built; a nested value is encoded
/// to completion and stored at once, so nothing is assembled afterwards except for the rare
/// container that a type asks for and fills later (`nestedContainer`).
public enum VarlinkObjectEncoder {
    /// The members of `value`, or none when it does not encode as an object.
    /// - Parameter value: A value that encodes itself as an object.
    /// - Returns: Its members.
    public static func members(of value: some Encodable) -> [String: JSONValue] {
        guard case .object(let members) = derived(value) else { return [:] }
        return members
    }

    /// A member's value: a Varlink object as it encodes itself (some do so by hand, for
    /// speed), anything else derived from `Codable`.
    fileprivate static func encoded<Value: Encodable>(_ value: Value) -> JSONValue {
        // Comparing the types first keeps the slow dynamic cast off every other value.
        if Value.self == JSONValue.self, let json = value as? JSONValue { return json }
        if Value.self == [String: JSONValue].self, let members = value as? [String: JSONValue] { return .object(members) }
        if let object = value as? any VarlinkObject { return .object(object.parameters) }
        return derived(value)
    }

    private static func derived(_ value: some Encodable) -> JSONValue {
        let encoder = ValueEncoder(Encoded())
        // The values this package declares are JSON-compatible and throw nothing.
        try? value.encode(to: encoder)
        return encoder.encoded.value
    }
}

/// A value being encoded: a single value, or an object or array filled member by member.
private final class Encoded {
    var scalar: JSONValue = .null
    var members: [String: JSONValue]?
    var elements: [JSONValue]?
    /// Containers handed out to be filled later, stored into the value when it is read.
    var lateMembers: [String: Encoded] = [:]
    var lateElements: [(index: Int, value: Encoded)] = []

    var value: JSONValue {
        if var members {
            for (key, late) in lateMembers { members[key] = late.value }
            return .object(members)
        }
        if var elements {
            for (index, late) in lateElements { elements[index] = late.value }
            return .array(elements)
        }
        return scalar
    }
}

private struct ValueEncoder: Encoder, SingleValueEncodingContainer {
    let encoded: Encoded
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ encoded: Encoded) {
        self.encoded = encoded
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if encoded.members == nil { encoded.members = [:] }
        return KeyedEncodingContainer(ObjectContainer<Key>(encoded: encoded))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if encoded.elements == nil { encoded.elements = [] }
        return ArrayContainer(encoded: encoded)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { encoded.scalar = .null }
    func encode(_ value: Bool) { encoded.scalar = .bool(value) }
    func encode(_ value: String) { encoded.scalar = .string(value) }
    func encode(_ value: Double) { encoded.scalar = .number(value) }
    func encode(_ value: Float) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: Int) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: Int8) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: Int16) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: Int32) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: Int64) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: UInt) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: UInt8) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: UInt16) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: UInt32) { encoded.scalar = .number(Double(value)) }
    func encode(_ value: UInt64) { encoded.scalar = .number(Double(value)) }
    func encode<Value: Encodable>(_ value: Value) { encoded.scalar = VarlinkObjectEncoder.encoded(value) }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoded: Encoded
    var codingPath: [any CodingKey] { [] }

    private func set(_ value: JSONValue, _ key: Key) { encoded.members?[key.stringValue] = value }

    mutating func encodeNil(forKey key: Key) { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) { set(.number(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) { set(VarlinkObjectEncoder.encoded(value), key) }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { if let value { set(.bool(value), key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) { if let value { set(.string(value), key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { if let value { set(.number(value), key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { if let value { set(.number(Double(value)), key) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        late(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { late(key).unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { ValueEncoder(encoded) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { late(key) }

    private func late(_ key: Key) -> ValueEncoder {
        let nested = Encoded()
        encoded.lateMembers[key.stringValue] = nested
        return ValueEncoder(nested)
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let encoded: Encoded
    var codingPath: [any CodingKey] { [] }
    var count: Int { encoded.elements?.count ?? 0 }

    mutating func encodeNil() { encoded.elements?.append(.null) }
    mutating func encode<Value: Encodable>(_ value: Value) { encoded.elements?.append(VarlinkObjectEncoder.encoded(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        late().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { late().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { late() }

    private mutating func late() -> ValueEncoder {
        let nested = Encoded()
        encoded.lateElements.append((count, nested))
        encoded.elements?.append(.null)
        return ValueEncoder(nested)
    }
}
