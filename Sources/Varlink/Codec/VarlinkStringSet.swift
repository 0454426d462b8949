import VarlinkJSON

/// A Varlink set, `[string]()`: strings without order or repetition, which travel as an
/// object whose members are the strings, each with an empty object as its value
/// (`{"one": {}, "two": {}}`).
///
/// Decoding is as strict as ``VarlinkObject``'s: a value that is not an empty object throws,
/// so that a map sent where a set is declared is reported rather than taken for its keys.
public struct VarlinkStringSet: Hashable, Sendable, Codable, ExpressibleByArrayLiteral {
    /// The strings.
    public var elements: Set<String>

    /// Creates a set.
    /// - Parameter elements: The strings.
    public init(_ elements: Set<String>) {
        self.elements = elements
    }

    /// Creates a set from a literal.
    /// - Parameter elements: The strings; repetitions count once.
    public init(arrayLiteral elements: String...) {
        self.elements = Set(elements)
    }

    /// The set as it travels: an object of empty objects.
    public var jsonValue: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: elements.map { ($0, JSONValue.object([:])) }))
    }

    /// Decodes the set from its object.
    /// - Parameter decoder: The object as the wire carries it.
    /// - Throws: `DecodingError` when it is not an object, or one of its values is not an
    ///   empty object.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.singleValueContainer().decode([String: JSONValue].self)
        guard members.values.allSatisfy({ $0 == .object([:]) }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a set's values are empty objects"))
        }
        elements = Set(members.keys)
    }

    /// Encodes the set as its object.
    /// - Parameter encoder: Where it goes.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
