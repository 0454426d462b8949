/// One D-Bus value as it arrived, with its type: what a follower reads from a signal or a
/// reply before it decides whether the value is one it can use. Nothing from the bus is
/// trusted to have the type the interface declares, so every accessor answers nil for a
/// value of another type instead of trapping.
package enum BusValue: Hashable, Sendable {
    /// `s`.
    case string(String)
    /// `o`: an object path.
    case objectPath(String)
    /// `g`: a type signature.
    case signature(String)
    /// `b`.
    case boolean(Bool)
    /// `y`, `n`, `i` and `x`: the signed and byte integer types.
    case integer(Int64)
    /// `q`, `u` and `t`: the unsigned integer types.
    case unsigned(UInt64)
    /// `d`.
    case double(Double)
    /// `h`: a file descriptor, which no follower uses; only its presence is kept.
    case fileDescriptor
    /// `a…`: an array (a dictionary is an array of ``dictionaryEntry(_:_:)``).
    indirect case array([BusValue])
    /// `(…)`: a struct.
    indirect case structure([BusValue])
    /// `v`: a variant and the value it holds.
    indirect case variant(BusValue)
    /// `{…}`: one entry of a dictionary.
    indirect case dictionaryEntry(BusValue, BusValue)

    /// The value itself, with any variants around it removed.
    package var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of a string, else nil.
    package var string: String? {
        if case .string(let text) = unwrapped { return text }
        return nil
    }

    /// The path of an object path, else nil.
    package var objectPath: String? {
        if case .objectPath(let path) = unwrapped { return path }
        return nil
    }

    /// The value of a boolean, else nil.
    package var boolean: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// The value of an unsigned integer (`q`, `u`, `t`), else nil.
    package var unsigned: UInt64? {
        if case .unsigned(let value) = unwrapped { return value }
        return nil
    }

    /// The members of a struct, else nil.
    package var structure: [BusValue]? {
        if case .structure(let members) = unwrapped { return members }
        return nil
    }

    /// The elements of an array, else nil.
    package var array: [BusValue]? {
        if case .array(let elements) = unwrapped { return elements }
        return nil
    }

    /// A property dictionary (`a{sv}`) as names and values, the variants unwrapped; nil
    /// for any other shape.
    package var properties: [String: BusValue]? {
        guard let entries = array else { return nil }
        var properties: [String: BusValue] = [:]
        for entry in entries {
            guard case .dictionaryEntry(let key, let value) = entry, let name = key.string else { return nil }
            properties[name] = value.unwrapped
        }
        return properties
    }

    /// The strings of a string array (`as`), else nil.
    package var strings: [String]? {
        guard let elements = array else { return nil }
        var strings: [String] = []
        for element in elements {
            guard let text = element.string else { return nil }
            strings.append(text)
        }
        return strings
    }
}
