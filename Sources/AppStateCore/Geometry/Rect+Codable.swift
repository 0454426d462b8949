extension Rect {
    private enum CodingKeys: String, CodingKey {
        case x, y, width, height
    }

    /// Decodes `{x, y, width, height}`: the flat form clients and the wire use, rather than
    /// the nested origin and size.
    /// - Parameter decoder: The encoded rectangle.
    /// - Throws: What the decoder throws for a missing or mistyped member.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            x: try container.decode(Double.self, forKey: .x),
            y: try container.decode(Double.self, forKey: .y),
            width: try container.decode(Double.self, forKey: .width),
            height: try container.decode(Double.self, forKey: .height)
        )
    }

    /// Encodes `{x, y, width, height}`.
    /// - Parameter encoder: Where the members go.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(origin.x, forKey: .x)
        try container.encode(origin.y, forKey: .y)
        try container.encode(size.width, forKey: .width)
        try container.encode(size.height, forKey: .height)
    }
}
