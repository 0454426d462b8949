extension NodeSnapshot {
    /// Decodes a node as the members of `io.appstate.Node`: an absent optional member is nil.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when a required member is missing or a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        storage = Storage(try Members(from: decoder))
    }

    /// Encodes the node's members; a nil optional member is left out.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try storage.members.encode(to: encoder)
    }
}
