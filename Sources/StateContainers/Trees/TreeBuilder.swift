/// Turns tree specs into controllers and windows: the storyboard's instantiation.
///
/// Each entry point validates first, so that any spec, even one made in code, gets a
/// ``TreeFileError`` naming the place of each problem rather than a trap; what the containers
/// themselves refuse (a ``ContainmentError``) is reported at the node that caused it.
///
/// ```swift
/// let file = try TreeFile.default
/// let window = try TreeBuilder.build(file.trees[0], clock: clock)
/// window.makeVisible()
/// ```
@MainActor public enum TreeBuilder {
    /// Builds a tree in a window that is not yet visible: call `makeVisible()` to put it on screen.
    ///
    /// Problems are located from the tree (`root.children[1]`); ``check(_:)`` locates them
    /// from the file (`trees[0].root.children[1]`).
    /// - Parameters:
    ///   - tree: The tree.
    ///   - bus: The bus the tree's containers observe.
    ///   - clock: The clock animated transitions take their duration on.
    /// - Returns: The window, with the tree's root as its root controller.
    /// - Throws: ``TreeFileError`` with every problem of the tree.
    public static func build(_ tree: TreeSpec, bus: NotificationBus = NotificationBus(), clock: some Clock<Duration> = ContinuousClock()) throws(TreeFileError) -> Window {
        let root = try makeRootController(for: tree)
        let window = Window(size: tree.window, bus: bus, clock: clock)
        window.rootController = root
        return window
    }

    /// Builds a tree's controllers in no window, so that saved state can be restored with
    /// `decodeRestorableTree(_:)` before the window loads any view; then make it a window's
    /// `rootController`, with the size of ``TreeSpec/window``.
    /// - Parameter tree: The tree.
    /// - Returns: The root controller, with titles, restoration identifiers, navigation
    ///   destinations and transition durations set as the tree says.
    /// - Throws: ``TreeFileError`` with every problem of the tree, located from the tree (`root.children[1]`).
    public static func makeRootController(for tree: TreeSpec) throws(TreeFileError) -> Controller {
        try makeRootController(for: tree, at: [])
    }

    /// Validates a tree file and builds each of its trees and each navigation destination
    /// once, in no window, so that a file that passes can be run and every `Push` of a
    /// destination can succeed: what `appstated --check` does after reading the file.
    /// - Parameter file: The tree file.
    /// - Throws: ``TreeFileError`` with every problem of the file, located from the file (`trees[0].root`).
    public static func check(_ file: TreeFile) throws(TreeFileError) {
        var validator = TreeValidator()
        validator.validate(file)
        guard validator.issues.isEmpty else { throw TreeFileError(issues: validator.issues) }
        var issues: [TreeFileError.Issue] = []
        for (index, tree) in file.trees.enumerated() {
            do {
                _ = try makeRootController(for: tree, at: [.key("trees"), .index(index)])
            } catch {
                issues += error.issues
            }
        }
        guard issues.isEmpty else { throw TreeFileError(issues: issues) }
    }

    private static func makeRootController(for tree: TreeSpec, at path: TreeValidator.Path) throws(TreeFileError) -> Controller {
        var validator = TreeValidator()
        validator.validate(tree, at: path)
        guard validator.issues.isEmpty else { throw TreeFileError(issues: validator.issues) }
        var issues: [TreeFileError.Issue] = []
        let root = make(tree.root, at: path + [.key("root")], issues: &issues)
        guard let root, issues.isEmpty else { throw TreeFileError(issues: issues) }
        return root
    }

    /// Builds a valid node and its subtree, or nil with the problems in `issues`. Siblings
    /// of a node that fails are still built, to report their problems too.
    private static func make(_ node: NodeSpec, at path: TreeValidator.Path, issues: inout [TreeFileError.Issue]) -> Controller? {
        let children = node.children.enumerated().map { index, child in
            make(child, at: path + [.key("children"), .index(index)], issues: &issues)
        }
        // Destinations are built afresh at each push, where a failure can only answer
        // "no such destination"; building each once now reports it with its place instead.
        for (index, destination) in node.destinations.enumerated() {
            _ = make(destination, at: path + [.key("destinations"), .index(index)], issues: &issues)
        }
        let builtChildren = children.compactMap(\.self)
        guard builtChildren.count == children.count else { return nil }
        do {
            let controller = try instantiate(node, children: builtChildren)
            controller.restorationIdentifier = node.restorationId
            return controller
        } catch {
            issues.append(TreeFileError.Issue(path: path, message: "cannot build this \(node.type): \(error)"))
            return nil
        }
    }

    /// The controller a valid node describes, holding its built children.
    /// - Throws: What the container's initialiser or set-up throws; a `ContainmentError` for
    ///   a node validation would have refused.
    private static func instantiate(_ node: NodeSpec, children: [Controller]) throws -> Controller {
        guard let type = node.nodeType else { throw ContainmentError.invalidArgument.with("unknown type \"\(node.type)\"") }
        let transitionDuration = node.transitionMs.map { Duration.milliseconds($0) }
        switch type {
        case .controller:
            return Controller(identifier: node.id, title: node.title)
        case .contentState:
            let controller = ContentStateController(identifier: node.id, title: node.title)
            if let transitionDuration { controller.transitionDuration = transitionDuration }
            switch NodeSpec.ContentStateName(rawValue: node.effectiveState) {
            case .render:
                guard let child = children.first else { throw ContainmentError.invalidArgument.with("nothing to render") }
                try controller.transition(to: .render(child))
            case .failed:
                try controller.transition(to: .failed(node.message ?? ""))
            case .loading:
                // What the container shows when its view loads with no state set.
                break
            case nil:
                throw ContainmentError.invalidArgument.with("unknown state \"\(node.effectiveState)\"")
            }
            return controller
        case .loginState:
            guard children.count == 2 || children.count == 3 else {
                throw ContainmentError.invalidArgument.with("a LoginStateController needs two or three children")
            }
            let controller = try LoginStateController(identifier: node.id, loggedOut: children[0], loggedIn: children[1],
                                                      locked: children.count == 3 ? children[2] : nil, title: node.title)
            if let transitionDuration { controller.transitionDuration = transitionDuration }
            return controller
        case .paginated:
            let controller = try PaginatedController(identifier: node.id, pages: children, title: node.title)
            if let transitionDuration { controller.transitionDuration = transitionDuration }
            return controller
        case .keyboardAware:
            guard let content = children.first else { throw ContainmentError.invalidArgument.with("a KeyboardAwareController needs a child") }
            return try KeyboardAwareController(identifier: node.id, content: content, title: node.title)
        case .menu:
            let controller = try MenuController(identifier: node.id, viewControllers: children, title: node.title)
            if let transitionDuration { controller.transitionDuration = transitionDuration }
            return controller
        case .stack:
            return try StackController(identifier: node.id, arrangedChildren: children, spacing: node.spacing ?? 0, title: node.title)
        case .navigation:
            guard let root = children.first else { throw ContainmentError.invalidArgument.with("a NavigationController needs a root") }
            let controller = try NavigationController(identifier: node.id, root: root, title: node.title)
            if let transitionDuration { controller.transitionDuration = transitionDuration }
            for screen in children.dropFirst() { try controller.push(screen, animated: false) }
            let destinations = node.destinations
            controller.makeDestination = { identifier in
                guard let destination = destinations.first(where: { $0.id == identifier }) else { return nil }
                // Building it once with the tree reported its problems with their places.
                var issues: [TreeFileError.Issue] = []
                return make(destination, at: [], issues: &issues)
            }
            return controller
        }
    }
}
