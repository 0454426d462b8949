import AppStateIPC
import StateContainers

/// The connections following `Watch`, by tree. Each change is encoded once, and the same
/// bytes go to every watcher of the tree in one hop to each lane (each event loop of the
/// server), rather than one per watcher: a thousand watchers cost a handful of thread
/// wake-ups, not a thousand.
@MainActor final class WatchHub {
    private var trees: [String: [any WatcherGroup]] = [:]

    /// The number of connections following a tree.
    var count: Int {
        trees.values.joined().reduce(0) { $0 + $1.openCount }
    }

    /// Adds a watcher of a tree; its first reply was already sent with the tree's snapshot.
    /// - Parameters:
    ///   - watcher: The connection that follows the tree.
    ///   - tree: The tree's name.
    func add<Watcher: WatcherSink>(_ watcher: Watcher, tree: String) {
        let lane = watcher.lane
        let group = trees[tree]?.lazy
            .compactMap { $0 as? LaneWatchers<Watcher.Lane> }
            .first { $0.lane === lane }
        if let group {
            group.watchers.append(watcher)
        } else {
            trees[tree, default: []].append(LaneWatchers(lane: lane, watchers: [watcher]))
        }
    }

    /// Sends a change and the tree after it to every watcher of the tree.
    /// - Parameters:
    ///   - event: What changed.
    ///   - root: The tree after the change.
    func publish(_ event: Event, root: Node) {
        guard var groups = trees[event.tree] else { return }
        groups.removeAll { $0.removeClosed() }
        trees[event.tree] = groups
        guard !groups.isEmpty else { return }
        let frame = VarlinkReply(parameters: Watch.Reply(event: event, root: root).parameters, continues: true).encoded
        for group in groups { group.send(frame) }
    }

    /// Ends every stream, when the daemon stops.
    func closeAll() {
        for group in trees.values.joined() { group.closeAll() }
        trees = [:]
    }
}

/// The watchers of one tree on one lane, whatever the lane's type.
@MainActor private protocol WatcherGroup: AnyObject {
    var openCount: Int { get }
    /// Forgets the closed watchers.
    /// - Returns: Whether none is left.
    func removeClosed() -> Bool
    func send(_ frame: [UInt8])
    func closeAll()
}

@MainActor private final class LaneWatchers<Lane: WatcherLane>: WatcherGroup {
    let lane: Lane
    var watchers: [Lane.Watcher]

    init(lane: Lane, watchers: [Lane.Watcher]) {
        self.lane = lane
        self.watchers = watchers
    }

    var openCount: Int { watchers.count { !$0.isClosed } }

    func removeClosed() -> Bool {
        watchers.removeAll { $0.isClosed }
        return watchers.isEmpty
    }

    func send(_ frame: [UInt8]) {
        lane.send(frame, to: watchers)
    }

    func closeAll() {
        for watcher in watchers { watcher.close() }
    }
}
