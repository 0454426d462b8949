import AppStateIPC
import ServicePorts
import StateContainers

/// The connections following `Watch`, by tree. Each change is encoded once, and the same
/// bytes go to every watcher of the tree in one hop to each lane (each event loop of the
/// server), rather than one per watcher: the hops grow with the lanes, not the watchers.
@MainActor final class WatchHub {
    /// The watchers of one tree, and the tree as they last saw it.
    private struct TreeWatchers {
        /// The tree as the last publication showed it (or the first watcher's snapshot):
        /// what the next change is measured from.
        var last: Node
        /// The watchers, by what they asked for.
        var subscriptions: [WatchSubscription: [any WatcherGroup]] = [:]
    }

    private var trees: [String: TreeWatchers] = [:]
    /// Whether a watcher has closed since the closed ones were last forgotten: only then does
    /// a change look at every watcher's connection before it is sent.
    private var watcherClosed = false

    /// The number of connections following a tree.
    var count: Int {
        trees.values.flatMap { $0.subscriptions.values }.joined().reduce(0) { $0 + $1.openCount }
    }

    /// Adds a watcher of a tree; its first reply was already sent with the tree's snapshot.
    /// - Parameters:
    ///   - watcher: The connection that follows the tree.
    ///   - tree: The tree's name.
    ///   - subscription: What the watcher is sent.
    ///   - root: The tree's snapshot in the watcher's first reply, from which changes are
    ///     measured if nobody else watches the tree.
    func add<Watcher: WatcherSink>(_ watcher: Watcher, tree: String, subscription: WatchSubscription, root: Node) {
        var watchers = trees[tree] ?? TreeWatchers(last: root)
        let lane = watcher.lane
        let group = watchers.subscriptions[subscription]?.lazy
            .compactMap { $0 as? LaneWatchers<Watcher.Lane> }
            .first { $0.lane === lane }
        if let group {
            group.watchers.append(watcher)
        } else {
            watchers.subscriptions[subscription, default: []].append(LaneWatchers(lane: lane, watchers: [watcher]))
        }
        trees[tree] = watchers
        watcher.whenClosed { [weak self] in self?.watcherClosed = true }
    }

    /// Sends a change to the watchers of its tree: what each subscription asks for is
    /// worked out and encoded once, and handed to each lane once.
    /// - Parameters:
    ///   - event: The change.
    ///   - root: The tree after it.
    func publish(_ event: Event, root: Node) {
        if watcherClosed { forgetClosed() }
        guard var watchers = trees[event.tree] else { return }
        let published = ContinuousClock.now
        let previous = watchers.last
        watchers.last = root
        for (subscription, groups) in watchers.subscriptions {
            guard let reply = subscription.reply(to: event, from: previous, to: root) else { continue }
            let frame = reply.streamedFrame
            for group in groups { group.send(frame, published: published) }
        }
        trees[event.tree] = watchers
    }

    /// Forgets the closed watchers, and the trees and subscriptions no one watches any more.
    private func forgetClosed() {
        watcherClosed = false
        for (tree, var watchers) in trees {
            for (subscription, var groups) in watchers.subscriptions {
                groups.removeAll { $0.removeClosed() }
                watchers.subscriptions[subscription] = groups.isEmpty ? nil : groups
            }
            trees[tree] = watchers.subscriptions.isEmpty ? nil : watchers
        }
    }

    /// Ends every stream, as the daemon stops.
    func closeAll() {
        for group in trees.values.flatMap({ $0.subscriptions.values }).joined() { group.closeAll() }
        trees = [:]
    }
}

@MainActor private protocol WatcherGroup: AnyObject {
    var openCount: Int { get }
    /// Forgets the closed watchers.
    /// - Returns: Whether none is left.
    func removeClosed() -> Bool
    func send(_ frame: [UInt8], published: ContinuousClock.Instant)
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

    func send(_ frame: [UInt8], published: ContinuousClock.Instant) {
        lane.send(frame, to: watchers, published: published)
    }

    func closeAll() {
        for watcher in watchers { watcher.close() }
    }
}
