extension JSONValue {
    /// Parses a value from UTF-8 JSON text, strictly (see ``JSONParser``).
    /// - Parameters:
    ///   - jsonBytes: The UTF-8 JSON text.
    ///   - maximumDepth: How many arrays and objects may enclose each other.
    /// - Throws: ``JSONParseError`` describing the first problem.
    public init(jsonBytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) throws(JSONParseError) {
        self = try JSONParser(maximumDepth: maximumDepth).parse(jsonBytes)
    }

    /// Parses a value from JSON text, strictly (see ``JSONParser``).
    /// - Parameters:
    ///   - jsonText: The JSON text.
    ///   - maximumDepth: How many arrays and objects may enclose each other.
    /// - Throws: ``JSONParseError`` describing the first problem.
    public init(jsonText: String, maximumDepth: Int = JSONParser.defaultMaximumDepth) throws(JSONParseError) {
        self = try JSONParser(maximumDepth: maximumDepth).parse(jsonText)
    }

    /// The compact, deterministic UTF-8 JSON text of this value (see ``JSONWriter``).
    public var jsonBytes: [UInt8] { JSONWriter.bytes(of: self) }

    /// The compact, deterministic JSON text of this value (see ``JSONWriter``).
    public var jsonText: String { String(decoding: jsonBytes, as: UTF8.self) }
}
