import AppStateIPC
import StateContainers

extension Node {
    /// The wire form of a model snapshot.
    /// - Parameter snapshot: A controller's snapshot, with its subtree.
    init(_ snapshot: NodeSnapshot) {
        self.init(
            path: snapshot.path,
            identifier: snapshot.identifier,
            type: snapshot.type,
            title: snapshot.title,
            appearance: Node.Appearance(rawValue: snapshot.appearance.rawValue) ?? .disappeared,
            frame: snapshot.frame,
            contentInset: snapshot.contentInset,
            onScreen: snapshot.onScreen,
            current: snapshot.current,
            pageIndex: snapshot.pageIndex,
            pageCount: snapshot.pageCount,
            user: snapshot.user,
            menuVisible: snapshot.menuVisible,
            keyboardOverlap: snapshot.keyboardOverlap,
            contentState: snapshot.contentState,
            children: snapshot.children.map(Node.init)
        )
    }
}
