/// Checks what decoding cannot: versions, names, identifiers, and for each node what its kind
/// (``ControllerKind``) says: the children it needs, the keys it takes and their values. It
/// goes on after each problem, so that one run reports them all.
struct TreeValidator {
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
        validate(tree.root, at: path + [.key("root")], depth: 0)
        validatePresentations(of: tree, at: path)
        if let seat = tree.logindSeat {
            validateSeat(seat, of: tree, at: path + [.key("logindSeat")])
        }
        if let output = tree.output, let problem = TreeSpec.outputNameProblem(output) {
            report(path + [.key("output")], problem)
        }
        if let offline = tree.offline, let problem = NodeSpec.urlProblem(offline, key: "offline") {
            report(path + [.key("offline")], problem)
        }
        validateIdleSteps(of: tree, at: path + [.key("idle")])
    }

    /// Steps that each name one action the tree can carry out, after a positive time, in
    /// rising order. A tree that follows a logind seat has logind lock the session, and leaves
    /// logging out to logind (its IdleAction), which decides the session.
    private mutating func validateIdleSteps(of tree: TreeSpec, at path: Path) {
        var previous: Double?
        for (index, step) in tree.idle.enumerated() {
            let stepPath = path + [.index(index)]
            if !(step.after.isFinite && step.after > 0) {
                report(stepPath + [.key("after")], "after must be a positive number of seconds (got \(Self.format(step.after)))")
            } else if let previous, step.after <= previous {
                report(
                    stepPath + [.key("after")],
                    "steps must come in rising order of after: \(Self.format(step.after)) comes after \(Self.format(previous))")
            }
            if step.after.isFinite, step.after > 0 { previous = max(previous ?? 0, step.after) }
            let named = [step.present.map { _ in "present" }, step.logout ? "logout" : nil, step.lock ? "lock" : nil, step.blank ? "blank" : nil]
                .compactMap(\.self)
            if named.count > 1 {
                report(stepPath, "a step does one thing: \(named.joined(separator: " and ")) cannot share a step")
            } else if named.isEmpty {
                report(stepPath, "a step needs an action: present: ID, logout: true, lock: true or blank: true")
            }
            if let present = step.present, !tree.presentations.contains(where: { $0.id == present }) {
                let known = tree.presentations.map(\.id)
                report(
                    stepPath + [.key("present")],
                    known.isEmpty
                        ? "unknown presentation \"\(present)\": the tree declares no presentations"
                        : "unknown presentation \"\(present)\" (expected one of \(known.joined(separator: ", ")))")
            }
            if step.logout || step.lock, !Self.containsLoginState(tree.root) {
                report(stepPath, "a \(step.logout ? "logout" : "lock") step needs a LoginStateController in the tree")
            } else if step.logout, tree.logindSeat != nil {
                report(stepPath, "a tree that follows a logind seat leaves logging out to logind (its IdleAction)")
            }
        }
    }

    /// A seat name as logind accepts one, and a login container to show what it follows.
    private mutating func validateSeat(_ seat: String, of tree: TreeSpec, at path: Path) {
        if let problem = TreeSpec.seatNameProblem(seat) {
            report(path, problem)
        }
        if !Self.containsLoginState(tree.root) {
            report(path, "a tree that follows a logind seat needs a LoginStateController")
        }
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

    private static func containsLoginState(_ node: NodeSpec) -> Bool {
        node.type == LoginStateController.Kind.typeName || node.children.contains(where: containsLoginState)
            || node.subtrees.contains { containsLoginState($0.node) }
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
        for (index, child) in node.children.enumerated() {
            validate(child, at: path + [.key("children"), .index(index)], depth: depth + 1)
        }
        for (place, subtree) in node.subtrees {
            validate(subtree, at: path + place, depth: depth + 1)
        }
    }

    private mutating func validateIdentifiers(of node: NodeSpec, at path: Path) {
        // Controller.addChild enforces the same rule on identifiers, which are path segments.
        if node.id.isEmpty {
            report(path, "identifier must not be empty")
        } else if node.id.contains("/") {
            report(path, "identifier \"\(node.id)\" must not contain \"/\"")
        }
        // Restoration paths join restoration identifiers with "/" as tree paths join identifiers.
        // One equal to the identifier (the default) shares its problems, reported above.
        if let restorationId = node.restorationId, restorationId != node.id {
            if restorationId.isEmpty {
                report(path + [.key("restorationId")], "restoration identifier must not be empty (null takes the node out of restoration)")
            } else if restorationId.contains("/") {
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
        var restorationIdentifiers: Set<String> = []
        for (index, child) in children.enumerated() {
            let childPath = path + [.key("children"), .index(index)]
            if !child.id.isEmpty, !identifiers.insert(child.id).inserted {
                report(childPath, "duplicate sibling identifier \"\(child.id)\"")
            } else if let restorationId = child.restorationId, !restorationIdentifiers.insert(restorationId).inserted {
                // Siblings' states would be saved under the same restoration path.
                report(childPath, "duplicate sibling restoration identifier \"\(restorationId)\"")
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
    static func format(_ value: Double) -> String {
        if let integer = Int(exactly: value) { return String(integer) }
        return String(value)
    }
}

extension TreeValidator {
    /// Issues sorted by their place in the file: list positions by index, keys in the order
    /// the format documents them (unknown keys last, by name), a place before what it contains.
    /// Issues at the same place keep their order.
    static func inFileOrder(_ issues: [TreeFileError.Issue]) -> [TreeFileError.Issue] {
        issues.enumerated().sorted { lhs, rhs in
            switch compare(lhs.element.path, rhs.element.path) {
            case .some(let isAscending): isAscending
            case nil: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// Whether `lhs` comes before `rhs`, or nil when they are the same place.
    private static func compare(_ lhs: Path, _ rhs: Path) -> Bool? {
        for (left, right) in zip(lhs, rhs) where left != right {
            switch (left, right) {
            case (.index(let left), .index(let right)): return left < right
            case (.key(let left), .key(let right)):
                let leftRank = keyRanks[left] ?? .max
                let rightRank = keyRanks[right] ?? .max
                return leftRank != rightRank ? leftRank < rightRank : left < right
            case (.index, .key): return true
            case (.key, .index): return false
            }
        }
        return lhs.count == rhs.count ? nil : lhs.count < rhs.count
    }

    private static let keyRanks: [String: Int] = {
        let keys =
            TreeFile.CodingKeys.allCases.map(\.stringValue) + TreeSpec.CodingKeys.allCases.map(\.stringValue)
            + IdleStep.CodingKeys.allCases.map(\.stringValue) + TreeSpec.WindowKeys.allCases.map(\.stringValue) + NodeSpec.keyNames
        return Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }()
}
