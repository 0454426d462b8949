/// One node of a ``YAMLDocument``: a scalar, a sequence or a mapping, with the line it starts
/// on. Collections refer to their items by index in the document, so that an alias is the
/// index of its anchor's node rather than a copy of it.
struct YAMLNode: Sendable {
    /// A scalar as libyaml read it, before any type is given to it.
    struct Scalar: Sendable {
        /// The scalar's text, escapes and folding applied.
        let text: String
        /// Whether it was written plain (unquoted, not a block scalar): only plain scalars
        /// are read as null or as a number, as Yams reads them.
        let isPlain: Bool
        /// Its explicit tag (`!!str 3`), the string tag for a quoted scalar without one, or nil
        /// for a plain scalar without one, whose tag follows from its text (``resolvedTag``).
        let tag: String?
    }

    /// A sequence's items, by index in the document.
    struct Sequence: Sendable {
        /// The items in file order.
        let items: [Int]
    }

    /// A mapping's pairs, by index in the document, in file order.
    struct Mapping: Sendable {
        /// The pairs in file order, merge keys (`<<`) included.
        let pairs: [Pair]
    }

    /// A mapping's key and value, by index in the document.
    struct Pair: Sendable {
        /// The key's node.
        let key: Int
        /// The value's node.
        let value: Int
    }

    /// What a node holds.
    enum Content: Sendable {
        case scalar(Scalar)
        case sequence(Sequence)
        case mapping(Mapping)
    }

    /// What the node holds.
    let content: Content
    /// The line the node starts on, from 1.
    let line: Int
    /// The column it starts at, from 1.
    let column: Int

    /// The node's scalar, or nil for a collection.
    var scalar: Scalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }
}
