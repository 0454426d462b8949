extension NodeSnapshot {
    private enum CodingKeys: String, CodingKey {
        case path, type, identifier, title, appearance, frame, contentInset, onScreen, current, pageIndex, pageCount
        case user, locked, menuVisible, keyboardOverlap, contentState, children
    }

    /// Decodes a node as the members of `io.appstate.Node`: an absent optional member is nil.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when a required member is missing or a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try container.decode(String.self, forKey: .path),
            identifier: try container.decode(String.self, forKey: .identifier),
            type: try container.decode(String.self, forKey: .type),
            title: try container.decodeIfPresent(String.self, forKey: .title),
            appearance: try container.decode(Appearance.self, forKey: .appearance),
            frame: try container.decode(Rect.self, forKey: .frame),
            contentInset: try container.decode(Insets.self, forKey: .contentInset),
            onScreen: try container.decode(Bool.self, forKey: .onScreen),
            current: try container.decodeIfPresent(String.self, forKey: .current),
            pageIndex: try container.decodeIfPresent(Int.self, forKey: .pageIndex),
            pageCount: try container.decodeIfPresent(Int.self, forKey: .pageCount),
            user: try container.decodeIfPresent(String.self, forKey: .user),
            locked: try container.decodeIfPresent(Bool.self, forKey: .locked),
            menuVisible: try container.decodeIfPresent(Bool.self, forKey: .menuVisible),
            keyboardOverlap: try container.decodeIfPresent(Double.self, forKey: .keyboardOverlap),
            contentState: try container.decodeIfPresent(String.self, forKey: .contentState),
            children: try container.decode([NodeSnapshot].self, forKey: .children)
        )
    }

    /// Encodes the node's members; a nil optional member is left out.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(type, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(frame, forKey: .frame)
        try container.encode(contentInset, forKey: .contentInset)
        try container.encode(onScreen, forKey: .onScreen)
        try container.encodeIfPresent(current, forKey: .current)
        try container.encodeIfPresent(pageIndex, forKey: .pageIndex)
        try container.encodeIfPresent(pageCount, forKey: .pageCount)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encodeIfPresent(locked, forKey: .locked)
        try container.encodeIfPresent(menuVisible, forKey: .menuVisible)
        try container.encodeIfPresent(keyboardOverlap, forKey: .keyboardOverlap)
        try container.encodeIfPresent(contentState, forKey: .contentState)
        try container.encode(children, forKey: .children)
    }
}
