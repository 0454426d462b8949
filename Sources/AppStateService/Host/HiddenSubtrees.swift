import StateContainers

/// The restorable state of subtrees a container keeps but does not show.
///
/// A login-state container holds both of its children but only the shown one is its child,
/// so `encodeRestorableTree()` (which follows `children`) leaves out the other one: while
/// nobody is logged in, the page, menu and navigation state of the logged-in child was not
/// saved, and a restart brought it back at its initial state although the running daemon
/// had kept it. These helpers save and restore the hidden child too, under the restoration
/// path it has when shown (e.g. `session/home/pages`), so the document reads the same
/// whichever child is shown.
@MainActor enum HiddenSubtrees {
    /// Adds the restorable state of every hidden subtree below `root` to `document`.
    static func encode(_ root: Controller, into document: inout RestorationDocument) {
        visitHidden(root, path: root.restorationPath) { hidden, path in
            encodeAll(hidden, path: path, into: &document)
        }
    }

    /// Restores every hidden subtree below `root` from `document`; the shown controllers were
    /// restored already (by `decodeRestorableTree`).
    static func decode(_ root: Controller, from document: RestorationDocument) {
        visitHidden(root, path: root.restorationPath) { hidden, path in
            decodeAll(hidden, path: path, from: document)
        }
    }

    /// The child a login-state container keeps without showing it.
    private static func hiddenChild(of controller: Controller) -> Controller? {
        guard let login = controller as? LoginStateController else { return nil }
        let hidden = login.shownController === login.loggedIn ? login.loggedOut : login.loggedIn
        return hidden.parent == nil ? hidden : nil
    }

    private static func join(_ path: String?, _ child: Controller) -> String? {
        guard let path, let identifier = child.restorationIdentifier else { return nil }
        return "\(path)/\(identifier)"
    }

    /// Calls `body` for each hidden subtree reachable through shown children, with the path it
    /// would have if shown.
    private static func visitHidden(_ controller: Controller, path: String?, _ body: (Controller, String) -> Void) {
        if let hidden = hiddenChild(of: controller), let hiddenPath = join(path, hidden) {
            body(hidden, hiddenPath)
        }
        for child in controller.children {
            visitHidden(child, path: join(path, child), body)
        }
    }

    /// Encodes a controller, its children and, recursively, their hidden subtrees.
    private static func encodeAll(_ controller: Controller, path: String, into document: inout RestorationDocument) {
        let coder = RestorationCoder()
        controller.encodeRestorableState(with: coder)
        if !coder.values.isEmpty { document.controllers[path] = coder.values }
        for child in controller.children + [hiddenChild(of: controller)].compactMap(\.self) {
            if let childPath = join(path, child) { encodeAll(child, path: childPath, into: &document) }
        }
    }

    /// Decodes a controller, then its children and hidden subtrees (after the controller,
    /// which may swap which child it shows).
    private static func decodeAll(_ controller: Controller, path: String, from document: RestorationDocument) {
        if let values = document.controllers[path] {
            controller.decodeRestorableState(with: RestorationCoder(values: values))
        }
        for child in controller.children + [hiddenChild(of: controller)].compactMap(\.self) {
            if let childPath = join(path, child) { decodeAll(child, path: childPath, from: document) }
        }
    }
}
