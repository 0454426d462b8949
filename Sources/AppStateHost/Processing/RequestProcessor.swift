import AppStateCore
import AppStateIPC
import Logging
import ServicePorts
import StateContainers

/// Answers the `io.appstate` calls of every connection, and the followers' calls, on the main
/// actor: access control, durable commits before a mutation is acknowledged, `Watch` streams.
///
/// A batch runs without waiting until it has to: for the peer's access, looked up once, and
/// for the write of restorable state. Each wait ends in a job handed to the ``MainActorRunner``,
/// never in an `await` of the main actor, so the daemon's one thread needs no main queue.
@MainActor package final class RequestProcessor: CallProcessor {
    /// What the processor reports in `GetStats` about the parts around it.
    package struct Environment: Sendable {
        /// The socket path, when the daemon created it.
        package var socket: String?
        /// The state directory.
        package var stateDirectory: String?
        /// The number of open connections.
        package var connections: @Sendable () -> Int = { 0 }
        /// The system sources followed and where each stands; nil when none is followed.
        package var followers: @Sendable () -> [Follower]? = { nil }

        /// Creates an environment.
        /// - Parameters:
        ///   - socket: The socket path, when the daemon created it.
        ///   - stateDirectory: The state directory.
        ///   - connections: The number of open connections.
        ///   - followers: The system sources followed and where each stands.
        package init(
            socket: String? = nil, stateDirectory: String? = nil, connections: @escaping @Sendable () -> Int = { 0 },
            followers: @escaping @Sendable () -> [Follower]? = { nil }
        ) {
            self.socket = socket
            self.stateDirectory = stateDirectory
            self.connections = connections
            self.followers = followers
        }
    }

    /// The trees.
    package let host: TreeHost
    /// The trees as readers on other threads see them, published after every change.
    nonisolated let published: PublishedTrees
    let store: StateStore?
    let hub = WatchHub()
    nonisolated let registry: MethodRegistry
    let runner: any MainActorRunner
    let started = ContinuousClock.now
    /// The state restored at start (or the initial one): what is durable before the first write.
    let startState: StateDocument
    /// The trees' restorable state as the last commit (or rollback) found it. Restorable state
    /// changes only in batches, and every batch that changes it ends in a commit that records
    /// it here, so at the start of a batch this is the state before the batch: what a batch
    /// whose state cannot be encoded goes back to, without walking the trees again.
    var lastDocument: StateDocument
    /// Advanced at each rollback after a refused commit; see ``StateStore``.
    var generation = 0
    /// The batches between taking their state and publishing their events.
    var commitsInFlight = 0
    let environment: Environment
    /// Where calls are counted by outcome, for `GetStats` and `GetMetrics`.
    nonisolated let metrics: DaemonMetrics
    /// Where each change is logged once it is durable, and each refused commit.
    let logger: Logger
    /// The trees whose session logind owns.
    var sessions: SessionGate
    /// The trees whose window size an output owns.
    var windows = OutputGate(owners: [:])
    /// The trees' idle clocks and the inhibitors that hold them back.
    nonisolated let idle: IdleClock
    /// The front-ends that report how they show the trees, timed on the idle clock's timer.
    let frontEnds: FrontEndBoard

    package nonisolated var interface: VarlinkInterfaceDescription {
        VarlinkInterfaceDescription(name: AppStateInterface.name, description: AppStateInterface.description)
    }

    /// Creates a processor.
    /// - Parameters:
    ///   - host: The trees.
    ///   - store: Where restorable state is committed; nil keeps nothing across restarts.
    ///   - runner: Where the end of a wait (a write, an access lookup) resumes a batch.
    ///   - environment: What `GetStats` reports about the parts around the processor.
    ///   - sessionOwners: The trees whose session follows logind, with the seat each follows.
    ///   - metrics: Where calls are counted and what `GetMetrics` reports.
    ///   - logger: Where changes and storage failures are logged, for the journal.
    ///   - idleTimer: The clock the trees' idle steps are timed on; by default the monotonic
    ///     clock, with `runner`'s timers.
    package convenience init(
        host: TreeHost, store: StateStore?, runner: any MainActorRunner = MainQueueRunner(), environment: Environment = Environment(),
        sessionOwners: [String: String] = [:], metrics: DaemonMetrics = DaemonMetrics(),
        logger: Logger = Logger(label: "appstated", factory: { _ in SwiftLogNoOpLogHandler() }), idleTimer: (any IdleTimer)? = nil
    ) {
        self.init(
            host: host, store: store, runner: runner, environment: environment, sessionOwners: sessionOwners, metrics: metrics,
            logger: logger, registry: .appState, idleTimer: idleTimer ?? ClockIdleTimer(RunnerClock(runner: runner)))
    }

    init(
        host: TreeHost, store: StateStore?, runner: any MainActorRunner, environment: Environment, sessionOwners: [String: String],
        metrics: DaemonMetrics, logger: Logger, registry: MethodRegistry, idleTimer: any IdleTimer
    ) {
        self.host = host
        self.metrics = metrics
        self.published = host.published
        self.store = store
        self.runner = runner
        self.environment = environment
        self.sessions = SessionGate(owners: sessionOwners)
        self.logger = logger
        self.registry = registry
        self.startState = host.restorableState
        self.lastDocument = startState
        self.idle = IdleClock(timer: idleTimer)
        self.frontEnds = FrontEndBoard(timer: idleTimer)
        host.afterDeferredChange = { [weak self] tree in
            self?.publish([(Event(tree: tree.name, name: RequestProcessor.transitionDidEnd, current: tree.deepestCurrentPath), true)])
        }
        idle.fire = { [weak self] tree, action in self?.runIdleStep(action, tree: tree) }
        idle.dismiss = { [weak self] tree, identifier in self?.dismissIdlePresentation(identifier, tree: tree) }
        configureIdleSteps()
        frontEnds.markedDown = { [weak self] frontEnd in self?.frontEndMarkedDown(frontEnd) }
        host.afterReload = { [weak self] in
            guard let self else { return }
            self.configureIdleSteps()
            self.frontEnds.keep(trees: self.host.treeNames)
        }
    }

    /// Locks a session logind owns, for a tree's `lock` idle step; without it such a step is
    /// refused as a client's `Lock` is.
    package var systemSessionLocker: (any SystemSessionLocker)?

    /// The on-screen keyboard the daemon follows, which `RequestKeyboard` asks to show or hide
    /// itself; nil when the daemon follows none, and `RequestKeyboard` then fails with
    /// `NoKeyboardFollowed`.
    package var systemKeyboard: (any SystemKeyboard)?

    /// The daemon's own idle inhibitor with the system, held while any client holds one.
    package var systemIdleInhibitor: (any SystemIdleInhibitor)? {
        get { idle.systemInhibitor }
        set { idle.systemInhibitor = newValue }
    }

    /// The name of the event sent when an animated transition finished on the window's
    /// clock: the tree's end state, which the event of the call that started it could not show.
    static let transitionDidEnd = "transition.didEnd"

    /// The number of `Watch` streams.
    package var watcherCount: Int { hub.count }

    package func process(_ calls: [VarlinkCall], on connection: ConnectionContext, reply: @escaping @MainActor ([VarlinkReply?]) -> Void) {
        let batch = Batch(calls: calls, routes: calls.map(route), connection: connection, reply: reply)
        // Decided before the batch starts, since the first time it may wait for the user
        // database: nothing may run on the main actor between the batch's first change and
        // its commit. A batch that only reads never asks.
        guard batch.routes.contains(where: { $0.effect?.isMutation == true }) else { return run(batch) }
        let access = connection.peer.access
        if let decided = access.decided {
            batch.mayMutate = decided
            return run(batch)
        }
        let runner = self.runner
        Task.detached {
            let answer = await Self.lookUp(access)
            runner.execute {
                access.record(answer)
                batch.mayMutate = answer
                self.run(batch)
            }
        }
    }

    /// Answers calls a system follower makes (the logind and keyboard followers), as one
    /// batch on the same path as a client's: the same durable commit before the change is
    /// published, the same events to watchers. The follower may change what logind owns.
    /// - Parameters:
    ///   - calls: The calls; `Watch` is not among them.
    ///   - reply: Receives the replies, in order, on the main actor.
    package func processFollowed(_ calls: [VarlinkCall], reply: @escaping @MainActor ([VarlinkReply?]) -> Void) {
        let batch = Batch(calls: calls, routes: calls.map(route), connection: nil, reply: reply)
        batch.mayMutate = true
        run(batch)
    }

    /// Where a call goes: a registered method, or the error that says why there is none.
    nonisolated func route(_ call: VarlinkCall) -> Route {
        if let entry = registry.entry(call.method) { return .method(entry) }
        if call.method.hasPrefix(AppStateInterface.name + ".") {
            return .unknown(.methodNotFound(call.method))
        }
        return .unknown(.interfaceNotFound(call.method.lastIndex(of: ".").map { String(call.method[..<$0]) } ?? call.method))
    }

    /// Takes what each tree follows, at start and after a reload: clients' calls that would
    /// change what a follower owns are refused from then on.
    /// - Parameter routes: The seat and the output each tree follows.
    package func follow(_ routes: FollowedRoutes) {
        sessions = SessionGate(owners: routes.seats)
        windows = OutputGate(owners: routes.outputs)
    }

    /// Ends every `Watch` stream, when the daemon stops.
    package func closeWatchers() {
        hub.closeAll()
    }
}
