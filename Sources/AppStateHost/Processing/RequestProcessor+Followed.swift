import ServicePorts
import StateContainers

extension RequestProcessor: FollowedHost {
    package var followedTrees: [FollowedTree] {
        host.trees.map { tree in
            let login = try? tree.container(LoginStateController.self, at: nil)
            return FollowedTree(
                name: tree.name, windowSize: tree.window.size,
                session: login.map { FollowedTree.Session(user: $0.session?.user, locked: $0.isLocked) },
                declaredSize: tree.declaredSize, keyboardFrame: tree.keyboardFrame)
        }
    }

    package func followedIdle(tree: String, idleFor duration: Duration?) {
        idle.systemIdle(tree: tree, for: duration)
    }
}
