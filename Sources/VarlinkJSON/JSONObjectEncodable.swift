/// A value that travels as a JSON object and encodes itself both ways the package needs: as
/// JSON text, written straight to bytes, and as ``JSONValue`` members.
///
/// The types of a Varlink interface get this conformance from the build plugin, which
/// generates it from the interface file: one walk of the members, in ascending order of their
/// keys, written to a ``JSONTextSink`` for the text and to a ``JSONValueSink`` for the values,
/// so that the two cannot disagree and a member declared in the interface file is encoded
/// without a line of hand-written code.
public protocol JSONObjectEncodable {
    /// Appends the value's JSON text: the bytes ``JSONWriter`` writes for ``jsonMembers``.
    /// - Parameter buffer: The buffer to append to.
    func writeJSON(into buffer: inout [UInt8])

    /// The value's members; an optional member that is nil is left out.
    var jsonMembers: [String: JSONValue] { get }
}

/// Where a ``JSONObjectEncodable`` value's members go, one at a time and in ascending order of
/// their keys: JSON text (``JSONTextSink``) or JSON values (``JSONValueSink``).
public protocol JSONMemberSink {
    /// How the sink takes a member's name, which the encoders give as a string literal: each
    /// sink takes it in the form it stores, so that the name costs nothing to convert.
    associatedtype Key: ExpressibleByStringLiteral

    /// Adds a string member.
    /// - Parameters:
    ///   - key: The member's name: ASCII that needs no escaping, after the previous key in order.
    ///   - value: The member's value.
    mutating func member(_ key: Key, _ value: String)

    /// Adds a number member; a non-finite number is `null`, as ``JSONWriter`` writes it.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The member's value.
    mutating func member(_ key: Key, _ value: Double)

    /// Adds an integer member, as the number it is.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The member's value.
    mutating func member(_ key: Key, _ value: Int)

    /// Adds a Boolean member.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The member's value.
    mutating func member(_ key: Key, _ value: Bool)

    /// Adds an object member made of JSON values, such as a notification's `userInfo`.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The object's members.
    mutating func member(_ key: Key, _ value: [String: JSONValue])

    /// Adds an array of strings.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The strings.
    mutating func member(_ key: Key, _ value: [String])

    /// Adds any JSON value: a map, a set, an array of optional values, which no other method
    /// takes as they are.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The value.
    mutating func member(_ key: Key, _ value: JSONValue)

    /// Adds an object member that encodes itself.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The object.
    mutating func member(_ key: Key, _ value: some JSONObjectEncodable)

    /// Adds an array of objects that encode themselves.
    /// - Parameters:
    ///   - key: The member's name, after the previous key in order.
    ///   - value: The objects.
    mutating func member<Element: JSONObjectEncodable>(_ key: Key, _ value: [Element])
}

/// Writes an object's members as JSON text, byte for byte what ``JSONWriter`` writes for the
/// same members: the sink of ``JSONObjectEncodable/writeJSON(into:)``.
public struct JSONTextSink: JSONMemberSink {
    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline var object: JSONObjectWriter

    /// Opens an object at the end of `buffer`, which the sink holds until ``close(into:)``
    /// gives it back.
    /// - Parameter buffer: The buffer to append to; empty until the sink is closed.
    public init(opening buffer: inout [UInt8]) {
        swap(&bytes, &buffer)
        object = JSONObjectWriter(opening: &bytes)
    }

    /// Closes the object and gives the buffer back.
    /// - Parameter buffer: Where the buffer goes back to.
    public mutating func close(into buffer: inout [UInt8]) {
        object.close(into: &bytes)
        swap(&bytes, &buffer)
    }

    public mutating func member(_ key: StaticString, _ value: String) {
        object.key(key, into: &bytes)
        JSONWriter.writeString(value, into: &bytes)
    }

    public mutating func member(_ key: StaticString, _ value: Double) {
        object.key(key, into: &bytes)
        JSONWriter.writeNumber(value, into: &bytes)
    }

    public mutating func member(_ key: StaticString, _ value: Int) {
        object.key(key, into: &bytes)
        JSONWriter.writeNumber(Double(value), into: &bytes)
    }

    public mutating func member(_ key: StaticString, _ value: Bool) {
        object.key(key, into: &bytes)
        JSONWriter.write(.bool(value), into: &bytes)
    }

    public mutating func member(_ key: StaticString, _ value: [String: JSONValue]) {
        object.key(key, into: &bytes)
        JSONWriter.writeObject(value, into: &bytes)
    }

    public mutating func member(_ key: StaticString, _ value: JSONValue) {
        object.key(key, into: &bytes)
        JSONWriter.write(value, into: &bytes)
    }

    public mutating func member(_ key: StaticString, _ value: [String]) {
        object.key(key, into: &bytes)
        bytes.append(UInt8(ascii: "["))
        for (position, element) in value.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(element, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    // Inlinable, as the generic members are: encoders in other modules then call the
    // object's own encoding directly rather than through the generic code of this one.
    @inlinable public mutating func member(_ key: StaticString, _ value: some JSONObjectEncodable) {
        object.key(key, into: &bytes)
        value.writeJSON(into: &bytes)
    }

    @inlinable public mutating func member<Element: JSONObjectEncodable>(_ key: StaticString, _ value: [Element]) {
        object.key(key, into: &bytes)
        bytes.append(UInt8(ascii: "["))
        for (position, element) in value.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            element.writeJSON(into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

/// Gathers an object's members as JSON values: the sink of ``JSONObjectEncodable/jsonMembers``.
public struct JSONValueSink: JSONMemberSink {
    /// The members gathered so far.
    public var members: [String: JSONValue] = [:]

    /// Creates an empty sink.
    /// - Parameter capacity: How many members the object can have, so that adding them does
    ///   not grow the dictionary.
    public init(capacity: Int) {
        members.reserveCapacity(capacity)
    }

    public mutating func member(_ key: String, _ value: String) {
        members[key] = .string(value)
    }

    public mutating func member(_ key: String, _ value: Double) {
        members[key] = .number(value)
    }

    public mutating func member(_ key: String, _ value: Int) {
        members[key] = .number(Double(value))
    }

    public mutating func member(_ key: String, _ value: Bool) {
        members[key] = .bool(value)
    }

    public mutating func member(_ key: String, _ value: [String: JSONValue]) {
        members[key] = .object(value)
    }

    public mutating func member(_ key: String, _ value: JSONValue) {
        members[key] = value
    }

    public mutating func member(_ key: String, _ value: [String]) {
        members[key] = .array(value.map(JSONValue.string))
    }

    @inlinable public mutating func member(_ key: String, _ value: some JSONObjectEncodable) {
        members[key] = .object(value.jsonMembers)
    }

    @inlinable public mutating func member<Element: JSONObjectEncodable>(_ key: String, _ value: [Element]) {
        members[key] = .array(value.map { .object($0.jsonMembers) })
    }
}
