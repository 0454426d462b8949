/// Checks what decoding cannot: versions, names, identifiers, and for each node what its kind
/// (``ControllerKind``) says: the children it needs, the keys it takes and their values. It
/// goes on after each problem, so that one run reports them all.
package struct TreeValidator {
    typealias Path = [TreeFileError.PathComponent]

    private var found: [TreeFileError.Issue] = []

    /// The problems found so far, in the order of the file.
    var issues: [TreeFileError.Issue] { Self.inFileOrder(found) }

    mutating func validate(_ file: TreeFile) {
        if file.version != TreeFile.currentVersion {
            report([.key("version")], "unsupported version \(file.version) (this build reads version \(TreeFile.currentVersion))")
        }
        if file.trees.isEmpty {
            report([.key("trees")], "a tree file needs at least one tree")
        }
        var names: Set<String> = []
        for (index, tree) in file.trees.enumerated() {
            let path: Path = [.key("trees"), .index(index)]
            if !tree.name.isEmpty, !names.insert(tree.name).inserted {
                report(path, "duplicate tree name \"\(tree.name)\"")
            }
            validate(tree, at: path)
        }
    }

    /// Checks one tree; paths start with `path` (`[]` for a tree on its own).
    mutating func validate(_ tree: TreeSpec, at path: Path) {
        if tree.name.isEmpty {
            report(path, "tree name must not be empty")
        } else if !tree.name.unicodeScalars.allSatisfy(Self.isNameScalar) {
            report(path, "tree name \"\(tree.name)\" may only contain a-z, 0-9 and \"-\"")
        }
        for (key, value) in [("width", tree.window.width), ("height", tree.window.height)] where !(value.isFinite && value > 0) {
            report(path + [.key("window"), .key(key)], "window \(key) must be a positive number (got \(Self.format(value)))")
        }
        if let offline = tree.offline, let problem = NodeSpec.urlProblem(offline, key: "offline") {
            report(path + [.key("offline")], problem)
        }
        validate(tree.root, at: path + [.key("root")], depth: 0)
        validatePresentations(of: tree, at: path)
    }

    /// Each presentation as a node of its own, with an identifier that no other presentation
    /// and no child the root has or may get has, since its path is the root's followed by its
    /// identifier, and a restoration identifier no other has, for the same reason.
    private mutating func validatePresentations(of tree: TreeSpec, at path: Path) {
        let root = tree.root
        let rootChildren = root.children + root.subtrees.map(\.node)
        var identifiers: Set<String> = []
        var restorationIdentifiers = Set(root.children.compactMap(\.restorationId))
        for (index, presentation) in tree.presentations.enumerated() {
            let place = path + [.key("presentations"), .index(index)]
            validate(presentation, at: place, depth: 0)
            guard !presentation.id.isEmpty else { continue }
            if !identifiers.insert(presentation.id).inserted {
                report(place, "duplicate presentation identifier \"\(presentation.id)\"")
            } else if rootChildren.contains(where: { $0.id == presentation.id }) {
                report(
                    place, "presentation identifier \"\(presentation.id)\" is a child's of the root: \(root.id)/\(presentation.id) would name both")
            } else if let restorationId = presentation.restorationId, !restorationIdentifiers.insert(restorationId).inserted {
                report(place, "duplicate restoration identifier \"\(restorationId)\" under the root")
            }
        }
    }

    private mutating func validate(_ node: NodeSpec, at path: Path, depth: Int) {
        guard depth <= NodeSpec.maximumDepth else {
            report(path, "nodes nest more than \(NodeSpec.maximumDepth) levels deep")
            return
        }
        validateIdentifiers(of: node, at: path)
        if let url = node.url, let problem = NodeSpec.urlProblem(url) {
            report(path, problem)
        }
        if let kind = node.kind {
            validateKeys(of: node, kind: kind, at: path)
            if let problem = kind.children.problem(count: node.children.count, typeName: kind.typeName) {
                report(path, problem)
            }
            kind.validate(node) { place, problem in report(path + place, problem) }
        } else {
            // Its subtree is still checked: the children's problems are the file's too.
            report(path, "unknown type \"\(node.type)\" (expected one of \(ControllerKinds.typeNames))")
        }
        validateSiblings(node.children, at: path)
        _ = path.mapChildPlaces(node.children.count) { index, place in validate(node.children[index], at: place, depth: depth + 1) }
        for (place, subtree) in node.subtrees {
            validate(subtree, at: path + place, depth: depth + 1)
        }
    }

    private mutating func validateIdentifiers(of node: NodeSpec, at path: Path) {
        // Controller.addChild enforces the same rule on identifiers, which are path segments.
        if node.id.isEmpty {
            report(path, "identifier must not be empty")
        } else if !node.id.isPathSegment {
            report(path, "identifier \"\(node.id)\" must not contain \"/\"")
        }
        // Restoration paths join restoration identifiers with "/" as tree paths join identifiers.
        // One equal to the identifier (the default) shares its problems, reported above.
        if let restorationId = node.restorationId, restorationId != node.id {
            if restorationId.isEmpty {
                report(path + [.key("restorationId")], "restoration identifier must not be empty (null takes the node out of restoration)")
            } else if !restorationId.isPathSegment {
                report(path + [.key("restorationId")], "restoration identifier \"\(restorationId)\" must not contain \"/\"")
            }
        }
    }

    /// Reports keys given to a kind that does not take them (a typo's cousin, as silently
    /// ignored), and values a key's own rule refuses.
    private mutating func validateKeys(of node: NodeSpec, kind: any ControllerKind.Type, at path: Path) {
        for (name, value) in node.values.sorted(by: { $0.key < $1.key }) {
            guard let key = kind.keys.first(where: { $0.name == name }) else {
                let takers = ControllerKinds.kinds(taking: name).map { $0.typeName }
                let list = takers.count > 1 ? takers.dropLast().joined(separator: ", ") + " or " + takers[takers.count - 1] : takers.joined()
                report(path + [.key(name)], "\"\(name)\" applies only to a \(list)")
                continue
            }
            if let problem = key.problem(with: value) { report(path + [.key(name)], problem) }
        }
    }

    private mutating func validateSiblings(_ children: [NodeSpec], at path: Path) {
        var identifiers: Set<String> = []
        identifiers.reserveCapacity(children.count)
        var restorationIdentifiers: Set<String> = []
        // Restoration identifiers that are the identifiers (or none) are as unique as those,
        // which spares a second set for the siblings of almost every tree.
        let restoredByIdentifier = children.allSatisfy { $0.restorationId == nil || $0.restorationId == $0.id }
        for (index, child) in children.enumerated() {
            if !child.id.isEmpty, !identifiers.insert(child.id).inserted {
                report(path + [.key("children"), .index(index)], "duplicate sibling identifier \"\(child.id)\"")
            } else if !restoredByIdentifier, let restorationId = child.restorationId, !restorationIdentifiers.insert(restorationId).inserted {
                // Siblings' states would be saved under the same restoration path.
                report(path + [.key("children"), .index(index)], "duplicate sibling restoration identifier \"\(restorationId)\"")
            }
        }
    }

    private mutating func report(_ path: Path, _ message: String) {
        found.append(TreeFileError.Issue(path: path, message: message))
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    /// A number as its author wrote it: `0`, `-1.5`, `inf`.
    package static func format(_ value: Double) -> String {
        if let integer = Int(exactly: value) { return String(integer) }
        return String(value)
    }
}

extension TreeValidator {
    /// Issues sorted by their place in the file: list positions by index, keys in the order
    /// the format documents them (unknown keys last, by name), a place before what it contains.
    /// Issues at the same place keep their order.
    /// - Parameters:
    ///   - issues: The issues.
    ///   - keys: Keys beyond the model's, in the order the reader's format documents them
    ///     among their siblings: the daemon's tree files give each tree keys of its own.
    /// - Returns: The issues in the order of the file.
    package static func inFileOrder(_ issues: [TreeFileError.Issue], keys: [String] = []) -> [TreeFileError.Issue] {
        // A key ranks by its first place: the reader's keys, which may list the model's
        // beside their own to place them, come first.
        let ranks = Dictionary((keys + modelKeys).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return issues.enumerated().sorted { lhs, rhs in
            switch compare(lhs.element.path, rhs.element.path, ranks: ranks) {
            case .some(let isAscending): isAscending
            case nil: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// Whether `lhs` comes before `rhs`, or nil when they are the same place.
    private static func compare(_ lhs: Path, _ rhs: Path, ranks: [String: Int]) -> Bool? {
        for (left, right) in zip(lhs, rhs) where left != right {
            switch (left, right) {
            case (.index(let left), .index(let right)): return left < right
            case (.key(let left), .key(let right)):
                let leftRank = ranks[left] ?? .max
                let rightRank = ranks[right] ?? .max
                return leftRank != rightRank ? leftRank < rightRank : left < right
            case (.index, .key): return true
            case (.key, .index): return false
            }
        }
        return lhs.count == rhs.count ? nil : lhs.count < rhs.count
    }

    /// The model's keys, in the order the format documents them.
    private static let modelKeys =
        TreeFile.CodingKeys.allCases.map(\.stringValue) + TreeSpec.keyNames + TreeSpec.WindowKeys.allCases.map(\.stringValue)
        + NodeSpec.keyNames
}
