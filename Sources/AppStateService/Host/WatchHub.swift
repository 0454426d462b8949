import AppStateIPC
import NIOCore
import StateContainers

/// The connections following `Watch`, by tree. Each change is encoded once and the same
/// bytes go to every watcher of the tree.
@MainActor final class WatchHub {
    private var watchers: [String: [WatcherConnection]] = [:]
    private let allocator = ByteBufferAllocator()

    /// The number of connections following a tree.
    var count: Int {
        watchers.values.reduce(0) { $0 + $1.count { !$0.isClosed } }
    }

    /// Adds a watcher of a tree; its first reply was already sent with the tree's snapshot.
    func add(_ watcher: WatcherConnection, tree: String) {
        watchers[tree, default: []].append(watcher)
    }

    /// Sends a change and the tree after it to every watcher of the tree.
    /// - Parameters:
    ///   - event: What changed.
    ///   - root: The tree after the change.
    func publish(_ event: Event, root: Node) {
        guard var list = watchers[event.tree] else { return }
        list.removeAll { $0.isClosed }
        watchers[event.tree] = list
        guard !list.isEmpty else { return }
        let reply = VarlinkReply(parameters: Watch.Reply(event: event, root: root).parameters, continues: true)
        let frame = allocator.buffer(bytes: reply.encoded)
        for watcher in list { watcher.send(frame) }
    }

    /// Ends every stream, when the daemon stops.
    func closeAll() {
        for watcher in watchers.values.joined() { watcher.close() }
        watchers = [:]
    }
}
