import AppStateCore
import AppStateIPC
import Logging
import StateContainers
import Synchronization

/// Answers the calls of every connection on the main actor: `org.varlink.service`, the
/// `io.appstate` methods with access control, durable commits before acknowledging a
/// mutation, and `Watch` streams.
@MainActor public final class RequestProcessor: CallProcessor {
    /// What the processor reports in `GetStats` about the parts around it.
    public struct Environment: Sendable {
        /// The socket path, when the daemon created it.
        public var socket: String?
        /// The state directory.
        public var stateDirectory: String?
        /// The number of open connections.
        public var connections: @Sendable () -> Int = { 0 }
        /// The system sources followed and where each stands; nil when none is followed.
        public var followers: @Sendable () -> [Follower]? = { nil }

        /// Creates an environment.
        public init(socket: String? = nil, stateDirectory: String? = nil, connections: @escaping @Sendable () -> Int = { 0 },
                    followers: @escaping @Sendable () -> [Follower]? = { nil }) {
            self.socket = socket
            self.stateDirectory = stateDirectory
            self.connections = connections
            self.followers = followers
        }
    }

    let host: TreeHost
    /// The trees as readers on other threads see them, published after every change.
    private nonisolated let published: PublishedTrees
    private let store: StateStore?
    private let hub = WatchHub()
    private lazy var handlers = Self.makeHandlers(host: host, stats: { [unowned self] in self.stats },
                                                  metrics: { [unowned self] in self.exposition })
    private let started = ContinuousClock.now
    /// The state restored at start (or the initial one): what is durable before the first write.
    private let startState: StateDocument
    /// The trees' restorable state as the last commit (or rollback) found it. Restorable state
    /// changes only in batches, and every batch that changes it ends in a commit that records
    /// it here, so at the start of a batch this is the state before the batch: what a batch
    /// whose state cannot be encoded goes back to, without walking the trees again.
    private var lastDocument: StateDocument
    /// Advanced at each rollback after a refused commit; see ``StateStore``.
    private var generation = 0
    /// The batches between taking their state and publishing their events.
    private var commitsInFlight = 0
    /// Counted on whichever thread answers the call.
    private nonisolated let requests = Atomic(0)
    private let environment: Environment
    /// Where clients' calls are counted by outcome, for `GetMetrics`.
    private nonisolated let metrics: DaemonMetrics
    /// Where each change is logged once it is durable, and each refused commit.
    private let logger: Logger
    /// The trees whose session follows logind, by name, with the seat each follows: clients'
    /// `Login`, `Logout`, `Lock` and `Unlock` on them, and their `Post`s of `session.didLogIn`
    /// and `session.didLogOut`, answer `io.appstate.SessionOwnedByLogind`.
    private let sessionOwners: [String: String]

    /// Creates a processor.
    /// - Parameters:
    ///   - host: The trees.
    ///   - store: Where restorable state is committed; nil keeps nothing across restarts.
    ///   - environment: What `GetStats` reports about the parts around the processor.
    ///   - sessionOwners: The trees whose session follows logind, with the seat each follows.
    ///   - metrics: Where clients' calls are counted and what `GetMetrics` reports.
    ///   - logger: Where changes and storage failures are logged, for the journal.
    public init(host: TreeHost, store: StateStore?, environment: Environment = Environment(), sessionOwners: [String: String] = [:],
                metrics: DaemonMetrics = DaemonMetrics(),
                logger: Logger = Logger(label: "appstated", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.host = host
        self.metrics = metrics
        self.published = host.published
        self.store = store
        self.environment = environment
        self.sessionOwners = sessionOwners
        self.logger = logger
        self.startState = host.restorableState
        self.lastDocument = startState
        host.afterDeferredChange = { [weak self] tree in
            self?.publish([(Event(tree: tree.name, name: RequestProcessor.transitionDidEnd, current: tree.deepestCurrentPath), true)])
        }
    }

    /// The name of the event sent when an animated transition finished on the window's
    /// clock: the tree's end state, which the event of the call that started it could not show.
    static let transitionDidEnd = "transition.didEnd"

    /// The number of `Watch` streams.
    public var watcherCount: Int { hub.count }

    public func process(_ calls: [VarlinkCall], on connection: ConnectionContext) async -> [VarlinkReply?] {
        let routes = calls.map { Route(method: $0.method) }
        // Decided before the batch starts, since the first time it may wait for the user
        // database: nothing may run on the main actor between the batch's first change and
        // its commit. A batch that only reads never asks.
        let mayMutate = routes.contains { $0.effect?.isMutation == true } ? await connection.peer.access.mayMutate() : false
        return await run(calls, routes: routes, mayMutate: mayMutate, connection: connection)
    }

    /// Answers calls a system follower makes (the logind and keyboard followers), as one
    /// batch on the same path as a client's: the same durable commit before the change is
    /// published, the same events to watchers. The follower may change what logind owns.
    /// - Parameter calls: The calls; `Watch` is not among them.
    /// - Returns: The replies, in order.
    public func processFollowed(_ calls: [VarlinkCall]) async -> [VarlinkReply?] {
        await run(calls, routes: calls.map { Route(method: $0.method) }, mayMutate: true, connection: nil)
    }

    /// Answers a batch at once, on the calling thread, when that thread runs the main queue
    /// (the daemon's event loop does; see ``MainThreadEventLoop``) and nothing in the batch
    /// needs to wait: no durable change, which waits for its write, no `Watch`, no write of
    /// another batch under way, which a change must not overtake on its way to the watchers,
    /// and the peer's access already decided. So the changes paced like a UI (the keyboard,
    /// the window size) reach the watchers without a hop to the main queue and back.
    /// - Parameters:
    ///   - calls: The calls, in the order they arrived.
    ///   - connection: The connection they arrived on.
    /// - Returns: The replies, as ``process(_:on:)`` gives them, or nil when the batch must go
    ///   there.
    public nonisolated func processAtOnce(_ calls: [VarlinkCall], on connection: ConnectionContext) -> [VarlinkReply?]? {
        guard MainThreadEventLoop.isCurrent else { return nil }
        return MainActor.assumeIsolated { runAtOnce(calls, on: connection) }
    }

    private func runAtOnce(_ calls: [VarlinkCall], on connection: ConnectionContext) -> [VarlinkReply?]? {
        let routes = calls.map { Route(method: $0.method) }
        guard commitsInFlight == 0, !routes.contains(where: { $0.effect == .changesDurably || $0.effect == .streams }) else { return nil }
        var mayMutate = false
        if routes.contains(where: { $0.effect?.isMutation == true }) {
            guard let decided = connection.peer.access.decided else { return nil }
            mayMutate = decided
        }
        var batch = Batch()
        for (call, route) in zip(calls, routes) {
            begin(route, in: &batch, fromClient: true)
            answer(call, route: route, mayMutate: mayMutate, fromClient: true, into: &batch)
        }
        if batch.changed { host.publish() }
        // Always published: the guard above left only transient changes, with no write under way.
        _ = publishedAtOnce(batch)
        return finish(calls, batch.replies, fromClient: true)
    }

    /// What a batch has answered so far.
    private struct Batch {
        /// A reply for every call, `oneway` ones too, so that each is counted by its outcome
        /// and a refused commit refuses them too; the connection is sent none of theirs.
        var replies: [VarlinkReply] = []
        var events: [(event: Event, durable: Bool)] = []
        /// The indices of the replies to durable mutations, which wait for the commit.
        var mutated: [Int] = []
        /// Whether a call of this batch may have changed the trees since they were published.
        var changed = false
    }

    /// Runs one batch. Without a connection (a follower's batch) the session is not refused
    /// as logind's and `Watch` cannot be answered.
    private func run(_ calls: [VarlinkCall], routes: [Route], mayMutate: Bool, connection: ConnectionContext?) async -> [VarlinkReply?] {
        var batch = Batch()
        for (call, route) in zip(calls, routes) {
            begin(route, in: &batch, fromClient: connection != nil)
            if route.effect == .streams, call.more, let connection {
                await commit(&batch)
                batch.replies.append(watch(call, on: connection))
                if batch.replies.last?.continues == true { break }
                continue
            }
            answer(call, route: route, mayMutate: mayMutate, fromClient: connection != nil, into: &batch)
        }
        if batch.changed { host.publish() }
        await commit(&batch)
        return finish(calls, batch.replies, fromClient: connection != nil)
    }

    /// Counts a call and, before a read, publishes what the batch changed so far, so that a
    /// client reads its own writes.
    private func begin(_ route: Route, in batch: inout Batch, fromClient: Bool) {
        // GetStats counts clients' calls; a follower's are not asked for by anyone.
        if fromClient { requests.add(1, ordering: .relaxed) }
        if batch.changed, route.readsPublished {
            host.publish()
            batch.changed = false
        }
    }

    /// Answers one call of a batch (not a `Watch` stream) and records its event.
    private func answer(_ call: VarlinkCall, route: Route, mayMutate: Bool, fromClient: Bool, into batch: inout Batch) {
        batch.changed = batch.changed || !route.readsPublished
        // Keyboard and window size are transient: they need no write, and a failed write of
        // the batch does not undo them.
        let durable = route.effect == .changesDurably
        do {
            let (reply, event) = try answer(call, route: route, mayMutate: mayMutate, fromClient: fromClient)
            if let event { batch.events.append((event, durable)) }
            // A mutation that changed nothing (Logout while logged out) still reports a
            // state, which another batch may have made and not yet written: its reply waits
            // until that state is durable too.
            if durable { batch.mutated.append(batch.replies.count) }
            batch.replies.append(VarlinkReply(parameters: reply))
        } catch {
            batch.replies.append(VarlinkReply(error: error))
        }
    }

    /// The replies the connection is sent, with clients' calls counted by outcome.
    private func finish(_ calls: [VarlinkCall], _ replies: [VarlinkReply], fromClient: Bool) -> [VarlinkReply?] {
        zip(calls, replies).map { call, reply in
            if fromClient { metrics.countRequest(call.method, error: reply.error) }
            return call.oneway ? nil : reply
        }
    }

    /// Answers a call that only reads (`GetTree`, `GetCurrent`, `org.varlink.service`) from
    /// the published snapshots, on the caller's thread.
    /// - Parameters:
    ///   - call: A call as it arrived.
    ///   - buffer: Where the reply frame goes, unless the call is `oneway`.
    /// - Returns: Whether the call was answered; false when it needs the main actor.
    public nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool {
        let route = Route(method: call.method)
        guard !call.more, !call.upgrade, route.readsPublished else { return false }
        requests.add(1, ordering: .relaxed)
        let start = buffer.endIndex
        var failure: String?
        do throws(VarlinkError) {
            switch route {
            case .appState(.getTree):
                let parameters = try TreeParameters(parameters: call.parameters)
                let question = PublishedTrees.Question(method: call.method, tree: parameters.tree, path: nil)
                try published.reply(to: question, into: &buffer) { snapshots throws(VarlinkError) in
                    try Self.treeReply(parameters, in: snapshots).parameters
                }
            case .appState(.getCurrent):
                let parameters = try GetCurrent.Parameters(parameters: call.parameters)
                let question = PublishedTrees.Question(method: call.method, tree: parameters.tree, path: parameters.path)
                try published.reply(to: question, into: &buffer) { snapshots throws(VarlinkError) in
                    try snapshots.current(parameters).parameters
                }
            default:
                VarlinkReply(parameters: try Self.answerService(call)).encode(into: &buffer)
            }
        } catch {
            buffer.removeSubrange(start...)
            VarlinkReply(error: error).encode(into: &buffer)
            failure = error.name
        }
        metrics.countRequest(call.method, error: failure)
        if call.oneway { buffer.removeSubrange(start...) }
        return true
    }

    private nonisolated static func treeReply(_ parameters: TreeParameters, in snapshots: TreeSnapshots) throws(VarlinkError) -> GetTree.Reply {
        GetTree.Reply(root: try snapshots.root(named: parameters.tree))
    }

    /// Makes the trees' state durable if it changed, then publishes the batch's events. When
    /// the state cannot be encoded or written, the trees go back to a state without the
    /// refused changes and the replies of the batch's durable mutations become
    /// `io.appstate.StorageFailure`: a refused change is neither kept nor published.
    private func commit(_ batch: inout Batch) async {
        defer {
            batch.events = []
            batch.mutated = []
        }
        let (mutated, events) = (batch.mutated, batch.events)
        guard !events.isEmpty || !mutated.isEmpty, !publishedAtOnce(batch) else { return }
        commitsInFlight += 1
        defer { commitsInFlight -= 1 }
        let document = host.restorableState
        let state: [UInt8]
        do {
            state = try document.encoded()
        } catch {
            // Nothing was written: undo this batch alone (others may be waiting for their
            // writes, which hold their changes and must stay). Nothing else ran on the main
            // actor since this batch last awaited, so the last recorded state is the one
            // before its changes.
            logStorageFailure("\(error); the change was refused")
            restore(lastDocument)
            refuse(&batch.replies, mutated: mutated, events: events, because: error)
            return
        }
        lastDocument = document
        // The store, not this actor, knows what is on disk: batches resume from their commits
        // in any order, so a copy kept here could name an older state as durable and let a
        // later mutation be acknowledged without a write.
        if let store {
            let generation = self.generation
            do {
                try await store.commit(state, generation: generation)
            } catch {
                if generation == self.generation { rollBack(after: error) }
                refuse(&batch.replies, mutated: mutated, events: events, because: error)
                return
            }
        }
        publish(events)
    }

    /// Publishes the batch's events at once when it needs no write. A batch that only moved
    /// the keyboard or resized the window changed nothing that is saved; when no other batch's
    /// write is under way either, nothing can be ahead of its events, so they go out without
    /// the hops to the store and back. Behind a write they wait their turn, so that watchers
    /// see the changes in the order they were made.
    /// - Returns: Whether the events were published.
    private func publishedAtOnce(_ batch: Batch) -> Bool {
        guard batch.mutated.isEmpty, !batch.events.contains(where: \.durable), commitsInFlight == 0 else { return false }
        publish(batch.events)
        return true
    }

    /// Turns the replies of the batch's durable mutations into `io.appstate.StorageFailure`
    /// and publishes only its transient changes, whose events say where the rolled-back
    /// trees are.
    private func refuse(_ replies: inout [VarlinkReply], mutated: [Int], events: [(event: Event, durable: Bool)], because error: any Error) {
        for index in mutated {
            replies[index] = VarlinkReply(error: .storageFailure(reason: "\(error)"))
        }
        publish(events.filter { !$0.durable }.map { entry in
            var event = entry.event
            // A tree that a reload has removed since keeps the path the event already had.
            if let tree = try? host.tree(named: event.tree) { event.current = tree.deepestCurrentPath }
            return (event, false)
        })
    }

    /// Puts the trees back to the last durable state and starts a new generation, so that
    /// states taken from the trees with the refused change are refused too.
    private func rollBack(after error: any Error) {
        generation += 1
        logStorageFailure("\(error); the change was refused and the trees are back at the last saved state")
        guard let durable = (error as? StateStore.CommitFailure)?.durableState else {
            restore(startState)
            return
        }
        do {
            restore(try StateDocument.decode(durable, path: store?.path ?? "state"))
        } catch {
            logStorageFailure("could not roll the trees back: \(error)")
        }
    }

    private func restore(_ document: StateDocument) {
        do {
            try host.restore(document)
            lastDocument = document
        } catch {
            logStorageFailure("could not roll the trees back: \(error)")
        }
        host.publish()
    }

    private func logStorageFailure(_ message: String) {
        logger.error("storage failure: \(message)", metadata: ["stateDirectory": "\(environment.stateDirectory ?? "")"])
    }

    /// Tells the watchers of each change, then logs it: a saved change (and the end of its
    /// animation) at `info`, for the journal to keep who logged in and what was shown; a
    /// keyboard move or resize at `debug`, since a UI makes those many times a second.
    private func publish(_ events: [(event: Event, durable: Bool)]) {
        for (event, _) in events {
            // A tree that a reload has removed since has no watchers left to tell.
            guard let root = try? published.snapshots.root(named: event.tree) else { continue }
            hub.publish(event, root: root)
        }
        // Logged once the changes are on their way to the watchers, so that formatting and
        // writing the log line (a system call to the journal) is not on their way.
        for (event, durable) in events {
            logger.log(level: durable ? .info : .debug, "\(event.name)", metadata: [
                "tree": .string(event.tree), "event": .string(event.name), "path": .string(event.path ?? ""), "current": .string(event.current),
            ])
        }
    }

    /// Every `io.appstate` method but `Watch`, each with the operation that answers it.
    static func makeHandlers(host: TreeHost, stats: @escaping @MainActor () -> GetStats.Reply,
                             metrics: @escaping @MainActor () -> String) -> MethodHandlers {
        var handlers = MethodHandlers()
        let published = host.published
        handlers.on(GetTree.self) { parameters throws(VarlinkError) in (try treeReply(parameters, in: published.snapshots), nil) }
        handlers.on(GetCurrent.self) { parameters throws(VarlinkError) in (try published.snapshots.current(parameters), nil) }
        handlers.on(GetStats.self) { _ in (stats(), nil) }
        handlers.on(GetMetrics.self) { _ in (GetMetrics.Reply(text: metrics()), nil) }
        handlers.on(Post.self, host.post)
        handlers.on(Login.self, host.logIn)
        handlers.on(Logout.self, host.logOut)
        handlers.on(Lock.self, host.lock)
        handlers.on(Unlock.self, host.unlock)
        handlers.on(ShowKeyboard.self, host.showKeyboard)
        handlers.on(HideKeyboard.self, host.hideKeyboard)
        handlers.on(SetPage.self, host.setPage)
        handlers.on(SelectMenuItem.self, host.selectMenuItem)
        handlers.on(Push.self, host.push)
        handlers.on(Pop.self, host.pop)
        handlers.on(Resize.self, host.resize)
        return handlers
    }

    private func watch(_ call: VarlinkCall, on connection: ConnectionContext) -> VarlinkReply {
        do {
            let parameters = try Watch.Parameters(parameters: call.parameters)
            let tree = try host.tree(named: parameters.tree)
            let root = tree.root.snapshot()
            let followed = try parameters.path.map { path throws(VarlinkError) in
                guard let node = root.node(at: path) else { throw .noSuchNode(path: path) }
                return node
            } ?? root
            hub.add(connection.watcher, tree: tree.name, subscription: WatchSubscription(path: parameters.path, full: parameters.full), root: root)
            return VarlinkReply(parameters: Watch.Reply(root: followed).parameters, continues: true)
        } catch {
            return VarlinkReply(error: error)
        }
    }

    /// One call's reply parameters, and the event when it changed a tree.
    private func answer(_ call: VarlinkCall, route: Route, mayMutate: Bool, fromClient: Bool) throws(VarlinkError) -> MethodHandlers.Answer {
        if call.upgrade { throw .methodNotImplemented(call.method) }
        switch route {
        case .unknown(let error):
            throw error
        case .service:
            return (try Self.answerService(call), nil)
        case .appState(let method):
            if method.effect == .streams, !call.more { throw .expectedMore }
            if method.isMutation, !mayMutate { throw .permissionDenied }
            if fromClient, Self.changesSession(method, call), let (tree, seat) = sessionOwner(of: call) {
                throw .sessionOwnedByLogind(tree: tree, seat: seat)
            }
            return try handlers.answer(method, call.parameters)
        }
    }

    /// Whether a call changes who is logged in or the lock, which logind owns on a tree that
    /// follows it: `Login`, `Logout`, `Lock`, `Unlock`, and the `Post` of a session
    /// notification, which the login container acts on as it would on those calls.
    private static func changesSession(_ method: AppStateMethod, _ call: VarlinkCall) -> Bool {
        switch method {
        case .login, .logout, .lock, .unlock:
            return true
        case .post:
            let name = call.parameters["name"]?.stringValue
            return name == NotificationName.sessionDidLogIn.rawValue || name == NotificationName.sessionDidLogOut.rawValue
        default:
            return false
        }
    }

    /// The tree a session call names and the seat it follows, when it follows logind. A
    /// `tree` of the wrong type is left to the method's decoding to refuse.
    private func sessionOwner(of call: VarlinkCall) -> (tree: String, seat: String)? {
        let name: String?
        switch call.parameters["tree"] {
        case .string(let tree)?: name = tree
        case .null?, nil: name = host.treeNames.first
        default: name = nil
        }
        guard let name, let seat = sessionOwners[name] else { return nil }
        return (name, seat)
    }

    private nonisolated static func answerService(_ call: VarlinkCall) throws(VarlinkError) -> [String: JSONValue] {
        switch call.method {
        case GetInfo.name:
            _ = try GetInfo.Parameters(parameters: call.parameters)
            return GetInfo.Reply(
                vendor: "appstate",
                product: "appstated",
                version: AppStateVersion.current,
                url: "https://github.com/appstate/appstate",
                interfaces: [VarlinkServiceInterface.name, AppStateInterface.name]
            ).parameters
        case GetInterfaceDescription.name:
            let parameters = try GetInterfaceDescription.Parameters(parameters: call.parameters)
            switch parameters.interface {
            case AppStateInterface.name: return GetInterfaceDescription.Reply(description: AppStateInterface.description).parameters
            case VarlinkServiceInterface.name: return GetInterfaceDescription.Reply(description: VarlinkServiceInterface.description).parameters
            default: throw .interfaceNotFound(parameters.interface)
            }
        default:
            throw .methodNotFound(call.method)
        }
    }

    private var stats: GetStats.Reply {
        GetStats.Reply(
            version: AppStateVersion.current,
            uptimeSeconds: Double((ContinuousClock.now - started).components.seconds),
            trees: host.treeNames,
            connections: environment.connections(),
            watchers: hub.count,
            requests: requests.load(ordering: .relaxed),
            stateDirectory: environment.stateDirectory,
            socket: environment.socket,
            followers: environment.followers()
        )
    }

    /// The metrics in the Prometheus text exposition format, with the connections and
    /// watchers as they are now.
    private var exposition: String {
        metrics.exposition(connections: environment.connections(), watchers: hub.count)
    }

    /// Ends every `Watch` stream, when the daemon stops.
    public func closeWatchers() {
        hub.closeAll()
    }
}
