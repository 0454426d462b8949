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
    public static func build(_ tree: TreeSpec, bus: NotificationBus = NotificationBus(), clock: some Clock<Duration> = ContinuousClock())
        throws(TreeFileError) -> Window
    {
        let root = try makeRootController(for: tree)
        let window = Window(size: tree.window, bus: bus, clock: clock)
        window.rootController = root
        return window
    }

    /// Builds a tree's controllers in no window, so that saved state can be restored with
    /// `decodeRestorableTree(_:)` before the window loads any view; then make it a window's
    /// `rootController`, with the size of ``TreeSpec/window``.
    /// - Parameter tree: The tree.
    /// - Returns: The root controller, with titles, urls, restoration identifiers, navigation
    ///   destinations, transition durations and the presentations its
    ///   `makePresentedController` makes set as the tree says.
    /// - Throws: ``TreeFileError`` with every problem of the tree, located from the tree (`root.children[1]`).
    public static func makeRootController(for tree: TreeSpec) throws(TreeFileError) -> Controller {
        try makeRootController(for: tree, at: [])
    }

    /// Validates a tree file and builds each of its trees, each navigation destination and
    /// each presentation once, in no window, so that a file that passes can be run and every
    /// `Push` of a destination and `Present` of a presentation can succeed: what
    /// `appstated --check` does after reading the file.
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
        return try makeRootController(forValidated: tree, at: path)
    }

    /// Builds the root controller of a tree that the validation of its file has checked, as
    /// ``TreeFile/decode(using:)`` and ``TreeFile/validate()`` do, without checking it again:
    /// the daemon builds what it has just read, and checking it twice would double the part
    /// of its start that grows with the tree.
    /// - Parameters:
    ///   - tree: A valid tree.
    ///   - path: Where the tree is in its file, for problems.
    /// - Throws: ``TreeFileError`` when a controller cannot be built.
    package static func makeRootController(forValidated tree: TreeSpec, at path: [TreeFileError.PathComponent] = []) throws(TreeFileError)
        -> Controller
    {
        var issues: [TreeFileError.Issue] = []
        let root = make(tree.root, at: path + [.key("root")], issues: &issues)
        // Built afresh for each presentation; built once now to report problems with their places.
        for (index, presentation) in tree.presentations.enumerated() {
            _ = make(presentation, at: path + [.key("presentations"), .index(index)], issues: &issues)
        }
        guard let root, issues.isEmpty else { throw TreeFileError(issues: issues) }
        if !tree.presentations.isEmpty {
            let presentations = tree.presentations
            root.makePresentedController = { identifier in
                var issues: [TreeFileError.Issue] = []
                return presentations.first { $0.id == identifier }.flatMap { make($0, at: [], issues: &issues) }
            }
        }
        return root
    }

    /// Builds a valid node and its subtree, or nil with the problems in `issues`. Siblings
    /// of a node that fails are still built, to report their problems too.
    private static func make(_ node: NodeSpec, at path: TreeValidator.Path, issues: inout [TreeFileError.Issue]) -> Controller? {
        let children = path.mapChildPlaces(node.children.count) { index, place in make(node.children[index], at: place, issues: &issues) }
        // The other subtrees (a navigation controller's destinations) are built afresh when the
        // controller needs them, where a failure has no place to report; building each once now
        // reports it with its place instead.
        for (place, subtree) in node.subtrees {
            _ = make(subtree, at: path + place, issues: &issues)
        }
        let builtChildren = children.compactMap(\.self)
        guard builtChildren.count == children.count else { return nil }
        do {
            guard let kind = node.kind else { throw ContainmentError.invalidArgument.with("unknown type \"\(node.type)\"") }
            let controller = try kind.make(node, children: builtChildren) { subtree in
                // Built once with the tree, which reported its problems with their places.
                var issues: [TreeFileError.Issue] = []
                return make(subtree, at: [], issues: &issues)
            }
            controller.restorationIdentifier = node.restorationId
            controller.url = node.url
            return controller
        } catch {
            issues.append(TreeFileError.Issue(path: path, message: "cannot build this \(node.type): \(error)"))
            return nil
        }
    }
}
