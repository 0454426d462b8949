import AppStateCore
import AppStateHTTP
import AppStateIPC
import AppStateWebServices
import NIOCore
import Synchronization

/// One upstream `Watch` of the daemon, for one tree and subtree, and the pages that follow
/// it as Server-Sent Events.
///
/// The feed keeps a copy of the (sub)tree, applying each reply's changes, so that a page that
/// connects late, or again, starts from the current tree. Every message carries an id,
/// `EPOCH.SEQ`: EPOCH names this connection to the daemon, SEQ counts its replies. A page
/// that reconnects with the id of the last message it got (`Last-Event-ID`) is sent the
/// changes it missed when the feed still holds them and the epoch is the same; otherwise it
/// is sent the whole tree again. Either way it is never left with a stale copy.
///
/// The feed follows the daemon with a ``WatchFollower``. When the daemon goes away the streams
/// stay open: each page is told (`status`), and the follower reconnects by the web front-ends'
/// one ``ReconnectBackoff`` rule; the daemon's first reply is then a new epoch's
/// snapshot, which every page applies in place of its copy. When the daemon refuses the
/// `Watch` itself (a path that names no node), pages waiting for their first answer get the
/// error as an HTTP status, open streams get it as a `refused` event and are closed.
///
/// Publishing and subscribing take the same lock and hand their messages to the streams
/// while holding it, so a page never misses a change or sees one twice, whenever it joins.
final class WatchFeed: Sendable {
    /// How many of the latest changes are kept for pages that reconnect.
    static let replayCapacity = 256

    let key: WatchKey
    private let socketPath: String
    private let makeEpoch: @Sendable () -> String
    private let statistics: GatewayStatistics
    private let onEnded: @Sendable (WatchFeed) -> Void
    private let onStreamClosed: @Sendable (WatchFeed, Int) -> Void
    private let state = Mutex(State())
    /// Set once, by ``init``, since the follower reports to the feed.
    private let follower = Mutex<WatchFollower?>(nil)

    private struct State {
        var root: Node?
        var epoch = ""
        var sequence = 0
        /// The latest changes, oldest first, with their sequence numbers.
        var recent: [(sequence: Int, message: ByteBuffer)] = []
        var status = Status(connected: false, message: "connecting to appstated")
        /// Whether the first attempt to reach the daemon has come to an end.
        var settled = false
        /// Set once the daemon refused the `Watch`: the feed takes no more pages.
        var ended = false
        var streams: [Int: EventStream] = [:]
        var waiting: [Int: Waiting] = [:]
        var nextSubscriber = 0
    }

    private struct Status {
        var connected: Bool
        var message: String

        var event: ServerSentEvent {
            ServerSentEvent(
                name: "status", data: JSONValue.object(["connected": .bool(connected), "message": .string(message)]).jsonText)
        }
    }

    /// A page whose request waits for the first answer of the daemon, which decides between
    /// a stream and an error status.
    private struct Waiting {
        var exchange: HTTPExchange
        var lastEventID: String?
    }

    /// Creates a feed; it connects on ``start()``.
    /// - Parameters:
    ///   - key: The tree and subtree.
    ///   - socketPath: The daemon's socket.
    ///   - makeEpoch: Names each new connection to the daemon, uniquely among the gateway's
    ///     feeds and its runs.
    ///   - statistics: Where cut-off streams are counted.
    ///   - onEnded: Called once the daemon refused the `Watch`, so that the feed is replaced.
    ///   - onStreamClosed: Called with a subscriber's number when its page's connection closes.
    init(
        key: WatchKey, socketPath: String, makeEpoch: @escaping @Sendable () -> String, statistics: GatewayStatistics,
        onEnded: @escaping @Sendable (WatchFeed) -> Void, onStreamClosed: @escaping @Sendable (WatchFeed, Int) -> Void
    ) {
        self.key = key
        self.socketPath = socketPath
        self.makeEpoch = makeEpoch
        self.statistics = statistics
        self.onEnded = onEnded
        self.onStreamClosed = onStreamClosed
    }

    /// Starts following the daemon.
    func start() {
        let follower = WatchFollower(socketPath: socketPath, tree: key.tree, path: key.path) { [weak self] update in
            self?.follow(update)
        }
        self.follower.withLock { $0 = follower }
        follower.start()
    }

    /// Stops following: closes the connection to the daemon.
    func stop() {
        follower.withLock { $0 }?.stop()
    }

    /// Adds a page.
    /// - Parameters:
    ///   - request: What it asked for, with the id of the last event it has.
    ///   - exchange: Where to answer, with the header fields the access policy granted.
    /// - Returns: The subscriber's number, or `nil` when the feed has ended and takes no one.
    func subscribe(_ request: WatchRequest, exchange: HTTPExchange) -> Int? {
        state.withLock { state -> Int? in
            guard !state.ended else { return nil }
            state.nextSubscriber += 1
            let waiting = Waiting(exchange: exchange, lastEventID: request.lastEventID)
            if state.settled {
                open(waiting, as: state.nextSubscriber, in: &state)
            } else {
                state.waiting[state.nextSubscriber] = waiting
            }
            return state.nextSubscriber
        }
    }

    /// Removes a page.
    /// - Parameter subscriber: The number ``subscribe(_:exchange:)`` returned.
    /// - Returns: Whether no page is left.
    func unsubscribe(_ subscriber: Int) -> Bool {
        state.withLock { state in
            state.streams[subscriber] = nil
            state.waiting[subscriber] = nil
            return state.streams.isEmpty && state.waiting.isEmpty
        }
    }

    /// Whether no page follows the feed.
    var isIdle: Bool {
        state.withLock { $0.streams.isEmpty && $0.waiting.isEmpty }
    }

    /// How many pages follow the feed.
    var streamCount: Int {
        state.withLock { $0.streams.count }
    }

    /// Sends a comment to every page, which keeps idle streams open through proxies.
    func keepAlive() {
        let message = ByteBuffer(string: ServerSentEvent.keepAlive)
        state.withLock { state in
            for stream in state.streams.values { stream.send(message) }
        }
    }

    private func follow(_ update: WatchFollower.Update) {
        switch update {
        case .connected: break
        case .reply(let reply, let tree): received(reply, tree: tree)
        case .disconnected(let reason): disconnected(reason)
        case .refused(let error):
            stop()
            refused(GatewayRefusal.daemon(error.name, parameters: error.parameters))
        }
    }

    /// Hands a reply to the pages and keeps the tree after it as the feed's copy.
    private func received(_ reply: Watch.Reply, tree: Node) {
        state.withLock { state in
            if let root = reply.root {
                // The first reply of a connection: a new epoch, whose snapshot replaces every
                // page's copy.
                state.epoch = makeEpoch()
                state.sequence = 0
                state.recent = []
                state.root = root
                state.status = Status(connected: true, message: "following appstated at \(socketPath)")
                let status = ByteBuffer(bytes: state.status.event.bytes)
                let snapshot = ByteBuffer(bytes: Self.snapshot(root, id: Self.id(state.epoch, 0)).bytes)
                broadcast([status, snapshot], in: &state)
                settle(in: &state)
                return
            }
            state.sequence += 1
            var data: [UInt8] = []
            reply.writeJSON(into: &data)
            let message = ByteBuffer(
                bytes: ServerSentEvent(name: "change", id: Self.id(state.epoch, state.sequence), data: String(decoding: data, as: UTF8.self)).bytes)
            state.recent.append((state.sequence, message))
            if state.recent.count > Self.replayCapacity { state.recent.removeFirst(state.recent.count - Self.replayCapacity) }
            broadcast([message], in: &state)
            // A page that joins meanwhile waits for the lock, so it is sent the copy with the change.
            state.root = tree
        }
    }

    private func disconnected(_ message: String) {
        state.withLock { state in
            let wasConnected = state.status.connected
            state.root = nil
            state.status = Status(connected: false, message: message)
            if wasConnected || !state.settled {
                broadcast([ByteBuffer(bytes: state.status.event.bytes)], in: &state)
            }
            settle(in: &state)
        }
    }

    private func refused(_ refusal: GatewayRefusal) {
        state.withLock { state in
            state.ended = true
            for waiting in state.waiting.values {
                waiting.exchange.respond(.json(status: refusal.status, refusal.json, headers: refusal.headers))
            }
            state.waiting = [:]
            let message = ByteBuffer(bytes: ServerSentEvent(name: "refused", data: refusal.json).bytes)
            for stream in state.streams.values {
                stream.send(message)
                stream.close()
            }
        }
        onEnded(self)
    }

    /// Opens the streams of the pages that waited for the first answer.
    private func settle(in state: inout State) {
        guard !state.settled else { return }
        state.settled = true
        let waiting = state.waiting
        state.waiting = [:]
        for (subscriber, page) in waiting { open(page, as: subscriber, in: &state) }
    }

    /// Answers a page with the stream: how to reconnect, the daemon's status, then what
    /// brings it up to date: the changes since its last event, or the snapshot.
    private func open(_ page: Waiting, as subscriber: Int, in state: inout State) {
        let stream = page.exchange.openEventStream()
        var messages = [ByteBuffer(string: ServerSentEvent.retry(milliseconds: 1000)), ByteBuffer(bytes: state.status.event.bytes)]
        if let root = state.root {
            if let missed = Self.missed(since: page.lastEventID, in: state) {
                messages += missed
            } else {
                messages.append(ByteBuffer(bytes: Self.snapshot(root, id: Self.id(state.epoch, state.sequence)).bytes))
            }
        }
        for message in messages { stream.send(message) }
        state.streams[subscriber] = stream
        stream.onClose { [self] in onStreamClosed(self, subscriber) }
    }

    /// The changes after the event a page names, when it is of the current epoch and the feed
    /// still holds every change since; `nil` when the page needs the snapshot.
    private static func missed(since lastEventID: String?, in state: State) -> [ByteBuffer]? {
        guard let lastEventID, let dot = lastEventID.lastIndex(of: "."), lastEventID[..<dot] == state.epoch,
            let sequence = Int(lastEventID[lastEventID.index(after: dot)...]), sequence <= state.sequence
        else { return nil }
        if sequence == state.sequence { return [] }
        guard let first = state.recent.first, first.sequence <= sequence + 1 else { return nil }
        return state.recent.filter { $0.sequence > sequence }.map(\.message)
    }

    private func broadcast(_ messages: [ByteBuffer], in state: inout State) {
        for message in messages {
            let subscribers = Array(state.streams)
            let deliveries = EventStream.broadcast(message, to: subscribers.map(\.value))
            for (subscriber, delivery) in zip(subscribers, deliveries) where delivery != .sent {
                // A page too far behind is disconnected by the stream; it reconnects with its
                // last event id and catches up.
                if delivery == .tooSlow { statistics.streamCutOff() }
                state.streams[subscriber.key] = nil
            }
        }
    }

    private static func snapshot(_ root: Node, id: String) -> ServerSentEvent {
        var data: [UInt8] = []
        Watch.Reply(root: root).writeJSON(into: &data)
        return ServerSentEvent(name: "snapshot", id: id, data: String(decoding: data, as: UTF8.self))
    }

    private static func id(_ epoch: String, _ sequence: Int) -> String {
        "\(epoch).\(sequence)"
    }
}
