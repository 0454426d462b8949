import StateContainers

/// A YAML document as ``YAMLComposer`` reads it: each node stored once, an alias being the
/// index of its anchor's node, so that a document's size in memory is its size in the file
/// however its aliases nest.
struct YAMLDocument: Sendable {
    /// Every node, each collection after its items.
    let nodes: [YAMLNode]
    /// The index of the top node.
    let root: Int

    /// The node at an index.
    subscript(index: Int) -> YAMLNode { nodes[index] }

    /// A mapping's pairs as decoding sees them, YAML 1.1 merge keys applied as Yams applies
    /// them: each `<<` pair is replaced by the pairs of the mapping it names (or of each mapping
    /// of the list it names, the last one first), put before the mapping's own pairs so that
    /// these win (lookups take the last pair of a key).
    func pairsMerged(of mapping: YAMLNode.Mapping) -> [YAMLNode.Pair] {
        var merged: [YAMLNode.Pair] = []
        var own: [YAMLNode.Pair] = []
        for pair in mapping.pairs {
            guard self[pair.key].scalar?.resolvedTag == YAMLTag.merge else {
                own.append(pair)
                continue
            }
            switch self[pair.value].content {
            case .mapping(let source):
                merged += pairsMerged(of: source)
            case .sequence(let sources):
                for item in sources.items.reversed() {
                    if case .mapping(let source) = self[item].content { merged += pairsMerged(of: source) }
                }
            case .scalar:
                // Yams drops a `<<` naming neither a mapping nor a list; so does this.
                continue
            }
        }
        return merged + own
    }

    /// Whether a key names `name` for lookups: a scalar with that text whose tag is the string
    /// tag (or the `=` value tag, which Yams reads as a string key), as Yams compares keys.
    func isKey(_ key: Int, named name: String) -> Bool {
        guard let scalar = self[key].scalar, scalar.text == name else { return false }
        let tag = scalar.resolvedTag
        return tag == YAMLTag.string || tag == YAMLTag.value
    }

    /// Whether the document, its aliases expanded, holds at most `limit` nodes (each mapping
    /// key and value counting). Stops counting at the limit, so that a document of aliases of
    /// aliases ("billion laughs") is refused in time proportional to the limit.
    func fits(expandedNodeLimit limit: Int) -> Bool {
        var remaining = limit
        func fits(_ index: Int) -> Bool {
            remaining -= 1
            guard remaining >= 0 else { return false }
            switch self[index].content {
            case .scalar: return true
            case .sequence(let sequence): return sequence.items.allSatisfy(fits)
            case .mapping(let mapping): return mapping.pairs.allSatisfy { fits($0.key) && fits($0.value) }
            }
        }
        return fits(root)
    }

    /// The line and column where a place in the file starts: a key's where the place is a
    /// mapping's value (so an unknown key's place is the key's), the item's where it is a
    /// list's. A place the document does not hold as such (a key from a `<<` merge) gets its
    /// nearest enclosing place's.
    func position(of path: [TreeFileError.PathComponent]) -> (line: Int, column: Int) {
        var node = root
        var start = self[root]
        for component in path {
            switch (component, self[node].content) {
            case (.key(let key), .mapping(let mapping)):
                guard let pair = mapping.pairs.first(where: { self[$0.key].scalar?.text == key }) else { return (start.line, start.column) }
                start = self[pair.key]
                node = pair.value
            case (.index(let index), .sequence(let sequence)) where sequence.items.indices.contains(index):
                node = sequence.items[index]
                start = self[node]
            default:
                return (start.line, start.column)
            }
        }
        return (start.line, start.column)
    }
}
