import AppStateIPC
import StateContainers

/// `Present` and `Dismiss`: the controllers a tree file lists under a tree's `presentations`,
/// presented by the tree's root, without animation, as the other changes are made.
extension TreeHost {
    func present(_ parameters: Present.Parameters) throws(VarlinkError) -> (PathReply, Event?) {
        let tree = try tree(named: parameters.tree)
        let root = tree.root
        do {
            try root.present(identifier: parameters.id, style: parameters.style.map(Self.modalPresentationStyle), animated: false)
        } catch {
            throw VarlinkError(presenting: error, root: root, tree: tree.name, id: parameters.id)
        }
        return (PathReply(path: root.presentedViewController?.path ?? root.path), event(tree, .present, path: root.path))
    }

    func dismiss(_ parameters: Dismiss.Parameters) throws(VarlinkError) -> (Dismiss.Reply, Event?) {
        let tree = try tree(named: parameters.tree)
        let changed = tree.root.dismiss(animated: false)
        return (Dismiss.Reply(changed: changed, path: tree.deepestCurrentPath), changed ? event(tree, .dismiss, path: tree.root.path) : nil)
    }

    private static func modalPresentationStyle(_ style: Present.Style) -> ModalPresentationStyle {
        switch style {
        case .fullScreen: .fullScreen
        case .overFullScreen: .overFullScreen
        }
    }
}
