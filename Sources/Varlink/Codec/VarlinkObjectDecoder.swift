import VarlinkJSON

/// Decodes a received Varlink object into a `Decodable` type with the strictness
/// ``VarlinkObject`` promises, so that each type declares its members once (its stored
/// properties) instead of reading them by hand.
///
/// Every problem becomes `org.varlink.service.InvalidParameter` naming the member by its
/// dotted path (`root.children[2].frame.x`): an undeclared member (checked first, against
/// ``VarlinkObject/memberNames``, so a misspelt optional member is reported rather than
/// taken as absent), a missing required member, a member of the wrong type, an `int` that is
/// not an integral number that fits, a `float` that is not finite. `null` counts as absent.
public enum VarlinkObjectDecoder {
    /// Decodes `type` from an object's members.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - members: The object's members as received.
    /// - Returns: The decoded value.
    /// - Throws: `InvalidParameter`, or what the type's own decoding throws.
    public static func decode<Value: VarlinkObject>(_ type: Value.Type, from members: [String: JSONValue]) throws(VarlinkError) -> Value {
        do {
            try checkDeclared(Value.memberNames, members, at: nil)
            return try Value(from: ValueDecoder(.object(members), at: nil))
        } catch let error as VarlinkError {
            throw error
        } catch DecodingError.dataCorrupted(let context) {
            // A string that is not one of an enumeration's values (`appearance`).
            throw .invalidParameter(dottedPath(context.codingPath))
        } catch {
            throw .invalidParameter("")
        }
    }

    /// Reads an optional string member, as the derived decoding does: for the few types
    /// decoded by hand on a service's hottest path.
    /// - Parameters:
    ///   - key: The member's name.
    ///   - members: The object's members as received.
    /// - Returns: The member's value.
    /// - Throws: `InvalidParameter` naming the member when it is not a string.
    public static func optionalString(_ key: String, in members: [String: JSONValue]) throws(VarlinkError) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalidParameter(key)
        }
    }

    /// Reads an optional `float` member, as the derived decoding does.
    /// - Parameters:
    ///   - key: The member's name.
    ///   - members: The object's members as received.
    /// - Returns: The member's value.
    /// - Throws: `InvalidParameter` naming the member when it is not a finite number.
    public static func optionalDouble(_ key: String, in members: [String: JSONValue]) throws(VarlinkError) -> Double? {
        switch members[key] {
        case nil, .null?: return nil
        case .number(let number)? where number.isFinite: return number
        default: throw .invalidParameter(key)
        }
    }

    /// Reads a required `float` member, as the derived decoding does.
    /// - Parameters:
    ///   - key: The member's name.
    ///   - members: The object's members as received.
    /// - Returns: The member's value.
    /// - Throws: `InvalidParameter` naming the member when it is absent or not a finite number.
    public static func double(_ key: String, in members: [String: JSONValue]) throws(VarlinkError) -> Double {
        guard let number = try optionalDouble(key, in: members) else { throw .invalidParameter(key) }
        return number
    }

    /// Rejects a member not in `declared`, as the derived decoding does.
    /// - Parameters:
    ///   - declared: The members the type declares.
    ///   - members: The object's members as received.
    /// - Throws: `InvalidParameter` naming the alphabetically first undeclared member.
    public static func checkDeclared(_ declared: [String], _ members: [String: JSONValue]) throws(VarlinkError) {
        try checkDeclared(declared, members, at: nil)
    }

    fileprivate static func checkDeclared(_ declared: [String], _ members: [String: JSONValue], at path: PathLink?) throws(VarlinkError) {
        var undeclared: String?
        for key in members.keys where !declared.contains(key) {
            if let found = undeclared, found < key { continue }
            undeclared = key
        }
        if let undeclared { throw invalid(path, MemberKey(undeclared)) }
    }

    fileprivate static func dottedPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    fileprivate static func invalid(_ path: PathLink?, _ key: (any CodingKey)? = nil) -> VarlinkError {
        .invalidParameter(dottedPath(PathLink.keys(path) + (key.map { [$0] } ?? [])))
    }
}

/// A member name or array index in a coding path.
struct MemberKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

/// Where a nested value is, kept as a chain that is turned into a path only for an error
/// (most decodes never need one).
private final class PathLink {
    let parent: PathLink?
    let key: any CodingKey

    init(_ parent: PathLink?, _ key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func keys(_ link: PathLink?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = link
        while let current = link {
            keys.append(current.key)
            link = current.parent
        }
        return keys.reversed()
    }
}

private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let path: PathLink?
    var codingPath: [any CodingKey] { PathLink.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, at path: PathLink?) {
        self.value = value
        self.path = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw VarlinkObjectDecoder.invalid(path) }
        return KeyedDecodingContainer(ObjectContainer<Key>(members: members, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw VarlinkObjectDecoder.invalid(path) }
        return ArrayContainer(elements: elements, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try Scalar.bool(value, path, nil) }
    func decode(_ type: String.Type) throws -> String { try Scalar.string(value, path, nil) }
    func decode(_ type: Double.Type) throws -> Double { try Scalar.double(value, path, nil) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Scalar.double(value, path, nil)) }
    func decode(_ type: Int.Type) throws -> Int { try Scalar.integer(value, path, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalar.integer(value, path, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalar.integer(value, path, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalar.integer(value, path, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalar.integer(value, path, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalar.integer(value, path, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalar.integer(value, path, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalar.integer(value, path, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalar.integer(value, path, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalar.integer(value, path, nil) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        // JSON values (userInfo) are taken as they are, not rebuilt through Codable.
        if type == JSONValue.self, let value = value as? Value { return value }
        if type == [String: JSONValue].self, case .object(let members) = value, let members = members as? Value { return members }
        if case .object(let members) = value, let object = type as? any VarlinkObject.Type {
            try VarlinkObjectDecoder.checkDeclared(object.memberNames, members, at: path)
        }
        return try Value(from: self)
    }
}

/// The scalar checks, shared by every container: an error names the member.
private enum Scalar {
    static func bool(_ value: JSONValue, _ path: PathLink?, _ key: (any CodingKey)?) throws -> Bool {
        guard case .bool(let flag) = value else { throw VarlinkObjectDecoder.invalid(path, key) }
        return flag
    }

    static func string(_ value: JSONValue, _ path: PathLink?, _ key: (any CodingKey)?) throws -> String {
        guard case .string(let text) = value else { throw VarlinkObjectDecoder.invalid(path, key) }
        return text
    }

    static func double(_ value: JSONValue, _ path: PathLink?, _ key: (any CodingKey)?) throws -> Double {
        guard case .number(let number) = value, number.isFinite else { throw VarlinkObjectDecoder.invalid(path, key) }
        return number
    }

    static func integer<Integer: FixedWidthInteger>(_ value: JSONValue, _ path: PathLink?, _ key: (any CodingKey)?) throws -> Integer {
        guard case .number(let number) = value, let integer = Integer(exactly: number) else {
            throw VarlinkObjectDecoder.invalid(path, key)
        }
        return integer
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let path: PathLink?
    var codingPath: [any CodingKey] { PathLink.keys(path) }

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    /// The member's value; `null` counts as absent.
    private func present(_ key: Key) -> JSONValue? {
        switch members[key.stringValue] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    private func required(_ key: Key) throws -> JSONValue {
        guard let value = present(key) else { throw VarlinkObjectDecoder.invalid(path, key) }
        return value
    }

    func contains(_ key: Key) -> Bool { present(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { present(key) == nil }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Scalar.bool(required(key), path, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Scalar.string(required(key), path, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Scalar.double(required(key), path, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Scalar.integer(required(key), path, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try Scalar.bool($0, path, key) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try Scalar.string($0, path, key) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try Scalar.double($0, path, key) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try Scalar.integer($0, path, key) } }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try ValueDecoder(required(key), at: PathLink(path, key)).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(required(key), at: PathLink(path, key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(required(key), at: PathLink(path, key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(.object(members), at: path) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(members[key.stringValue] ?? .null, at: PathLink(path, key)) }
}

private struct ArrayContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let path: PathLink?
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { PathLink.keys(path) }

    init(elements: [JSONValue], path: PathLink?) {
        self.elements = elements
        self.path = path
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }

    private mutating func next() throws -> ValueDecoder {
        let key = MemberKey(index: currentIndex)
        guard !isAtEnd else { throw VarlinkObjectDecoder.invalid(path, key) }
        defer { currentIndex += 1 }
        return ValueDecoder(elements[currentIndex], at: PathLink(path, key))
    }
}
