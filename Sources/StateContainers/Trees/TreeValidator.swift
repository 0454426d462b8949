/// Checks what decoding cannot: versions, names, identifiers, the children each type needs
/// and the keys each type accepts. It goes on after each problem, so that one run reports
/// them all.
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
        if let seat = tree.logindSeat {
            validateSeat(seat, of: tree, at: path + [.key("logindSeat")])
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

    private static func containsLoginState(_ node: NodeSpec) -> Bool {
        node.nodeType == .loginState || node.children.contains(where: containsLoginState) || node.destinations.contains(where: containsLoginState)
    }

    private mutating func validate(_ node: NodeSpec, at path: Path, depth: Int) {
        guard depth <= NodeSpec.maximumDepth else {
            report(path, "nodes nest more than \(NodeSpec.maximumDepth) levels deep")
            return
        }
        validateIdentifiers(of: node, at: path)
        if let type = node.nodeType {
            validateKeys(of: node, type: type, at: path)
            validateChildCount(of: node, type: type, at: path)
            if type == .contentState { validateContentState(of: node, at: path) }
        } else {
            // Its subtree is still checked: the children's problems are the file's too.
            report(path, "unknown type \"\(node.type)\" (expected one of \(NodeType.expectedNames))")
        }
        validateSiblings(node.children, at: path)
        validateDestinations(of: node, at: path)
        for (index, child) in node.children.enumerated() {
            validate(child, at: path + [.key("children"), .index(index)], depth: depth + 1)
        }
        for (index, destination) in node.destinations.enumerated() {
            validate(destination, at: path + [.key("destinations"), .index(index)], depth: depth + 1)
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

    /// Reports keys given to a type that does not use them: a typo's cousin, as silently ignored.
    private mutating func validateKeys(of node: NodeSpec, type: NodeType, at path: Path) {
        if let spacing = node.spacing {
            if type != .stack {
                report(path + [.key("spacing")], "\"spacing\" applies only to a StackController")
            } else if !(spacing.isFinite && spacing >= 0) {
                report(path + [.key("spacing")], "spacing must be a number of at least 0 (got \(Self.format(spacing)))")
            }
        }
        if let transitionMs = node.transitionMs {
            if !type.hasTransitionDuration {
                report(path + [.key("transitionMs")], "\"transitionMs\" does not apply to a \(type.rawValue), which has no transitions")
            } else if transitionMs < 0 {
                report(path + [.key("transitionMs")], "transition duration must not be negative (got \(transitionMs))")
            }
        }
        if type != .navigation, !node.destinations.isEmpty {
            report(path + [.key("destinations")], "\"destinations\" applies only to a NavigationController")
        }
        if type != .contentState {
            if node.state != nil { report(path + [.key("state")], "\"state\" applies only to a ContentStateController") }
            if node.message != nil { report(path + [.key("message")], "\"message\" applies only to a ContentStateController") }
        }
    }

    private mutating func validateChildCount(of node: NodeSpec, type: NodeType, at path: Path) {
        let count = node.children.count
        let problem: String? = switch type {
        case .controller: count == 0 ? nil : "a Controller has no children"
        case .contentState: count <= 1 ? nil : "a ContentStateController has at most one child (what it renders)"
        case .loginState: count == 2 || count == 3 ? nil : "a LoginStateController needs two or three children (logged out, logged in, and optionally locked)"
        case .keyboardAware: count == 1 ? nil : "a KeyboardAwareController needs exactly one child (its content)"
        case .paginated: count >= 1 ? nil : "a PaginatedController needs at least one child (its pages)"
        case .menu: count >= 1 ? nil : "a MenuController needs at least one child (its items)"
        case .stack: count >= 1 ? nil : "a StackController needs at least one child (its arranged children)"
        case .navigation: count >= 1 ? nil : "a NavigationController needs at least one child (its root)"
        }
        if let problem { report(path, problem) }
    }

    private mutating func validateContentState(of node: NodeSpec, at path: Path) {
        guard let state = NodeSpec.ContentStateName(rawValue: node.effectiveState) else {
            let expected = NodeSpec.ContentStateName.allCases.map(\.rawValue).joined(separator: ", ")
            report(path + [.key("state")], "unknown state \"\(node.effectiveState)\" (expected one of \(expected))")
            return
        }
        switch state {
        case .render:
            if node.children.isEmpty { report(path, "a ContentStateController in state \"render\" needs a child to render") }
        case .loading, .failed:
            if !node.children.isEmpty {
                report(path, "a ContentStateController in state \"\(state.rawValue)\" does not show its child (only state \"render\" does)")
            }
        }
        if state == .failed, node.message == nil {
            report(path, "a ContentStateController in state \"failed\" needs a \"message\"")
        } else if state != .failed, node.message != nil {
            report(path + [.key("message")], "\"message\" applies only to state \"failed\"")
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

    private mutating func validateDestinations(of node: NodeSpec, at path: Path) {
        var identifiers: Set<String> = []
        for (index, destination) in node.destinations.enumerated() {
            let destinationPath = path + [.key("destinations"), .index(index)]
            if !identifiers.insert(destination.id).inserted {
                report(destinationPath, "duplicate destination identifier \"\(destination.id)\"")
            } else if destination.id == node.children.first?.id {
                // The root is never popped, so a screen with its identifier can never be pushed.
                report(destinationPath, "destination identifier \"\(destination.id)\" is the root's: it could never be pushed")
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
            case let (.index(left), .index(right)): return left < right
            case let (.key(left), .key(right)):
                let leftRank = keyRanks[left] ?? .max, rightRank = keyRanks[right] ?? .max
                return leftRank != rightRank ? leftRank < rightRank : left < right
            case (.index, .key): return true
            case (.key, .index): return false
            }
        }
        return lhs.count == rhs.count ? nil : lhs.count < rhs.count
    }

    private static let keyRanks: [String: Int] = {
        let keys = TreeFile.CodingKeys.allCases.map(\.stringValue) + TreeSpec.CodingKeys.allCases.map(\.stringValue)
            + TreeSpec.WindowKeys.allCases.map(\.stringValue) + NodeSpec.CodingKeys.allCases.map(\.stringValue)
        return Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }()
}
