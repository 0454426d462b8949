import AppStateCore
import AppStateIPC
import StateContainers

/// The hosted trees as they stood when last published: what `GetTree` and `GetCurrent`
/// answer, on whichever thread the call arrived, without waiting for the main actor.
struct TreeSnapshots: Sendable {
    /// One tree's name and the snapshot of its root.
    struct Tree: Sendable {
        let name: String
        let root: NodeSnapshot
    }

    /// The trees, the default one first.
    let trees: [Tree]

    /// The root of the tree with a name, or of the first tree for nil.
    /// - Throws: `io.appstate.NoSuchTree`.
    func root(named name: String?) throws(VarlinkError) -> NodeSnapshot {
        try Self.tree(named: name, in: trees, name: \.name).root
    }

    /// The tree with a name, or the first tree for nil: how every call's `tree` parameter is
    /// read, on the live trees and on their snapshots alike.
    /// - Throws: `io.appstate.NoSuchTree`.
    static func tree<Tree>(named name: String?, in trees: [Tree], name treeName: (Tree) -> String) throws(VarlinkError) -> Tree {
        guard let name else {
            guard let first = trees.first else { throw .noSuchTree("") }
            return first
        }
        guard let tree = trees.first(where: { treeName($0) == name }) else { throw .noSuchTree(name) }
        return tree
    }

    /// The current child of a container, or the end of the chain of current children from
    /// the root when no path is given.
    /// - Throws: `io.appstate.NoSuchTree`, `io.appstate.NoSuchNode`, or
    ///   `io.appstate.WrongContainerType` for a node that has no current child.
    func current(_ parameters: GetCurrent.Parameters) throws(VarlinkError) -> GetCurrent.Reply {
        let root = try root(named: parameters.tree)
        guard let path = parameters.path else {
            let deepest = root.deepestCurrentPath
            guard let node = root.node(at: deepest) else { throw .noSuchNode(path: deepest) }
            return GetCurrent.Reply(path: deepest, node: node)
        }
        guard let container = root.node(at: path) else { throw .noSuchNode(path: path) }
        guard let current = container.current, let child = container.children.first(where: { $0.identifier == current }) else {
            throw .wrongContainerType(path: path, expected: "a container with a current child", actual: container.type)
        }
        return GetCurrent.Reply(path: child.path, node: child)
    }
}
