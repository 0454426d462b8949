import AppStateIPC
import NIOCore
import StateContainers

/// The connections following `Watch`, by tree. Each change is encoded once, and the same
/// bytes go to every watcher of the tree in one hop to each event loop, rather than one per
/// watcher: a thousand watchers cost a handful of thread wake-ups, not a thousand.
@MainActor final class WatchHub {
    /// The watchers of one tree that share an event loop.
    private struct LoopWatchers {
        let eventLoop: any EventLoop
        var watchers: [WatcherConnection]
    }

    private var watchers: [String: [LoopWatchers]] = [:]
    private let allocator = ByteBufferAllocator()

    /// The number of connections following a tree.
    var count: Int {
        watchers.values.joined().reduce(0) { $0 + $1.watchers.count { !$0.isClosed } }
    }

    /// Adds a watcher of a tree; its first reply was already sent with the tree's snapshot.
    func add(_ watcher: WatcherConnection, tree: String) {
        var loops = watchers[tree, default: []]
        if let index = loops.firstIndex(where: { $0.eventLoop === watcher.eventLoop }) {
            loops[index].watchers.append(watcher)
        } else {
            loops.append(LoopWatchers(eventLoop: watcher.eventLoop, watchers: [watcher]))
        }
        watchers[tree] = loops
    }

    /// Sends a change and the tree after it to every watcher of the tree.
    /// - Parameters:
    ///   - event: What changed.
    ///   - root: The tree after the change.
    func publish(_ event: Event, root: Node) {
        guard var loops = watchers[event.tree] else { return }
        for index in loops.indices { loops[index].watchers.removeAll { $0.isClosed } }
        loops.removeAll { $0.watchers.isEmpty }
        watchers[event.tree] = loops
        guard !loops.isEmpty else { return }
        let reply = VarlinkReply(parameters: Watch.Reply(event: event, root: root).parameters, continues: true)
        let frame = allocator.buffer(bytes: reply.encoded)
        for loop in loops {
            let batch = loop.watchers
            loop.eventLoop.execute {
                for watcher in batch { watcher.send(frame) }
            }
        }
    }

    /// Ends every stream, when the daemon stops.
    func closeAll() {
        for loop in watchers.values.joined() {
            for watcher in loop.watchers { watcher.close() }
        }
        watchers = [:]
    }
}
