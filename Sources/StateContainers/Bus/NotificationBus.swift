import AppStateCore

/// A notification bus with `NotificationCenter`'s contract, made fit for a daemon: a tree's
/// controllers talk through it, and the socket posts to it.
///
/// Delivery is synchronous, on the main actor, in registration order. A post made by an observer
/// is delivered completely before the outer post goes on (depth-first, as Foundation does). An
/// observer added during a post does not receive that post; one removed during a post before
/// its turn does not receive it either.
///
/// Posting is on the hot path of every event, so it neither allocates nor touches a reference
/// count (the targets: BENCHMARKS.md): each name's observers live in storage
/// a post walks through a plain pointer (see `ObserverList`), and each observer is called
/// through the storage's own reference to it, borrowed where it lies.
/// What keeps that safe is that nothing a post walks is changed or freed while any post runs:
/// a registration or removal during a post copies the list to new storage, and the old storage,
/// with its references to the observers it holds (removed ones included), is freed when the
/// outermost post returns. A removed observer is marked, so a post whose walk still holds it
/// skips it.
@MainActor
public final class NotificationBus {
    private var listsByName: [NotificationName: ObserverList] = [:]
    private let everyName = ObserverList()
    // What a post reads skips the runtime's exclusivity check, which costs more than a
    // delivery: the bus never calls out while it is accessing these.
    // The last name looked up and its list (nil: no observers), always a true pair: posts tend
    // to repeat a name, and comparing a name with itself is cheaper than hashing it.
    @exclusivity(unchecked) private var cachedName: NotificationName = ""
    // Unretained, so that a hit costs no reference counting: the dictionary owns the list, and
    // the pair is updated whenever a list leaves the dictionary.
    @exclusivity(unchecked) private var cachedList: Unmanaged<ObserverList>?
    /// How many posts are running (nested posts count each).
    @exclusivity(unchecked) private var postDepth = 0
    /// Which outermost post is running: lists walked during it carry it as their `walkMark`.
    @exclusivity(unchecked) private var walkEpoch: UInt64 = 0
    @exclusivity(unchecked) private var hasRetired = false
    /// Storage and observers that running posts may still walk, freed when the outermost returns.
    private var retiredStorage: [UnsafeMutableBufferPointer<ObserverEntry>] = []
    private var lastID: UInt64 = 0

    /// The number of registered observers, for tests that check that a torn-down tree leaves none.
    public private(set) var observerCount = 0

    /// Creates a bus with no observers.
    public init() {}

    /// Delivers a notification to the observers registered for its name (and object), then returns.
    /// - Parameters:
    ///   - name: What happened.
    ///   - object: The object posting the notification; observers registered for another object
    ///     do not receive it.
    ///   - userInfo: The details.
    @inlinable
    public func post(name: NotificationName, object: (any AnyObject & Sendable)? = nil, userInfo: [String: JSONValue] = [:]) {
        // Inlinable so that the notification is built where the caller's values are: a literal
        // name and an empty userInfo are then moved in, where building it here would retain each.
        deliver(BusNotification(name: name, object: object, userInfo: userInfo))
    }

    /// Delivers a notification: the body of ``post(name:object:userInfo:)``.
    @usableFromInline
    func deliver(_ notification: BusNotification) {
        if postDepth == 0 { walkEpoch &+= 1 }
        var named = UnsafeBufferPointer<ObserverEntry>(start: nil, count: 0)
        if let list = list(named: notification.name) { named = beginWalk(list.takeUnretainedValue()) }
        let everyNamed = beginWalk(everyName)
        if named.isEmpty && everyNamed.isEmpty { return }

        let target = notification.object.map(ObjectIdentifier.init)
        postDepth += 1
        var nextNamed = 0
        var nextEveryName = 0
        // Named and every-name observers are two sorted runs of registration ids: merge them.
        while nextNamed < named.count, nextEveryName < everyNamed.count {
            if named[nextNamed].id < everyNamed[nextEveryName].id {
                call(notification, to: named[nextNamed], target: target)
                nextNamed += 1
            } else {
                call(notification, to: everyNamed[nextEveryName], target: target)
                nextEveryName += 1
            }
        }
        while nextNamed < named.count {
            call(notification, to: named[nextNamed], target: target)
            nextNamed += 1
        }
        while nextEveryName < everyNamed.count {
            call(notification, to: everyNamed[nextEveryName], target: target)
            nextEveryName += 1
        }
        postDepth -= 1
        if postDepth == 0 && hasRetired { freeRetired() }
    }

    /// Posts a typed message as the notification it converts to.
    ///
    /// The notification carries the message itself: typed observers take it without decoding,
    /// and its `userInfo` is built only if an untyped observer reads it.
    /// - Parameters:
    ///   - message: The message; its type gives the name and it gives the `userInfo`.
    ///   - object: The object posting the message, if any.
    @inlinable
    public func post<M: BusMessage>(_ message: M, object: (any AnyObject & Sendable)? = nil) {
        // Inlinable so that the message is stored in the notification by code that knows its
        // type, rather than through its generic witnesses. Its box is one allocation, far less
        // than the dictionaries of its `userInfo`.
        deliver(BusNotification(message, object: object))
    }

    /// Registers a closure to receive notifications.
    ///
    /// The observer stays registered as long as the returned token is alive and not cancelled;
    /// keep the token, as discarding it removes the observer at once.
    /// - Parameters:
    ///   - name: The name to receive, or `nil` for every name.
    ///   - object: The object whose notifications to receive, compared by identity, or `nil` for
    ///     notifications from any object. The bus does not keep it alive.
    ///   - block: Called on the main actor with each matching notification.
    /// - Returns: The token that keeps the observer registered.
    public func addObserver(
        forName name: NotificationName?,
        object: (any AnyObject & Sendable)? = nil,
        using block: @escaping @MainActor (BusNotification) -> Void
    ) -> ObservationToken {
        lastID += 1
        let list = list(forAdding: name)
        retire(list.prepareForChange(adding: 1, keepingOld: isWalked(list)))
        list.append(ObserverEntry(id: lastID, observer: Observer(object: object, block: block)))
        observerCount += 1
        return ObservationToken(bus: self, name: name, id: lastID)
    }

    /// Registers a closure to receive one type of message.
    ///
    /// A notification of the message's name whose `userInfo` does not decode (posted from the
    /// socket with a missing key, say) is skipped; so is a posted message that would not
    /// decode from its own `userInfo` (see ``BusMessage/roundTripped``).
    /// - Parameters:
    ///   - type: The message type to receive.
    ///   - object: The object whose messages to receive, compared by identity, or `nil` for any.
    ///   - block: Called on the main actor with each message that decodes.
    /// - Returns: The token that keeps the observer registered.
    public func addObserver<M: BusMessage>(
        for type: M.Type,
        object: (any AnyObject & Sendable)? = nil,
        using block: @escaping @MainActor (M) -> Void
    ) -> ObservationToken {
        addObserver(forName: M.name, object: object) { notification in
            let decoded: M?
            if let carried = notification.carried as? Carried<M> {
                decoded = carried.message.roundTripped
            } else {
                decoded = M(notification)
            }
            guard let message = decoded else { return }
            block(message)
        }
    }

    /// The notifications of one name as an asynchronous sequence.
    ///
    /// The observer behind the stream is removed once the stream terminates (its consuming task
    /// is cancelled or the stream is released); the stream finishes if the bus goes away.
    /// - Parameters:
    ///   - name: The name to receive.
    ///   - object: The object whose notifications to receive, or `nil` for any.
    ///   - bufferingPolicy: What to keep while the consumer is behind; by default everything,
    ///     as nothing is lost that way.
    /// - Returns: A stream of the notifications posted from now on.
    public func notifications(
        named name: NotificationName,
        object: (any AnyObject & Sendable)? = nil,
        bufferingPolicy: AsyncStream<BusNotification>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<BusNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: BusNotification.self, bufferingPolicy: bufferingPolicy)
        let sink = StreamSink(continuation)
        let token = addObserver(forName: name, object: object) { notification in
            sink.continuation.yield(notification)
        }
        continuation.onTermination = { _ in
            Task { @MainActor in token.cancel() }
        }
        return stream
    }

    func removeObserver(id: UInt64, name: NotificationName?) {
        guard let list = registeredList(forName: name), let index = list.index(of: id) else { return }
        list.entries[index].observer.isRemoved = true
        retire(list.prepareForChange(adding: 0, keepingOld: isWalked(list)))
        let removed = list.remove(at: index)
        observerCount -= 1
        if let name, list.isEmpty {
            listsByName[name] = nil
            cachedName = name
            cachedList = nil
        }
        // Releasing the closure can run deinits that cancel other tokens; the bookkeeping must
        // be finished by then. A running post that may still call the observer walks storage
        // that was kept, with its own reference to it.
        withExtendedLifetime(removed) {}
    }

    @inline(__always)
    private func list(named name: NotificationName) -> Unmanaged<ObserverList>? {
        if name == cachedName { return cachedList }
        let list = listsByName[name].map(Unmanaged.passUnretained)
        cachedName = name
        cachedList = list
        return list
    }

    private func registeredList(forName name: NotificationName?) -> ObserverList? {
        guard let name else { return everyName }
        return listsByName[name]
    }

    private func list(forAdding name: NotificationName?) -> ObserverList {
        guard let name else { return everyName }
        if let list = listsByName[name] { return list }
        let list = ObserverList()
        listsByName[name] = list
        cachedName = name
        cachedList = .passUnretained(list)
        return list
    }

    @inline(__always)
    private func beginWalk(_ list: ObserverList) -> UnsafeBufferPointer<ObserverEntry> {
        list.walkMark = walkEpoch
        return list.walk
    }

    /// Whether a running post may be walking the list's current storage.
    private func isWalked(_ list: ObserverList) -> Bool {
        postDepth > 0 && list.walkMark == walkEpoch
    }

    private func retire(_ storage: UnsafeMutableBufferPointer<ObserverEntry>?) {
        guard let storage else { return }
        retiredStorage.append(storage)
        hasRetired = true
    }

    /// Frees what the posts that just ended walked. Releasing observers can run deinits that
    /// remove or even post, so the lists are taken before anything is released.
    private func freeRetired() {
        while hasRetired {
            hasRetired = false
            let storage = retiredStorage
            retiredStorage = []
            for entries in storage {
                entries.deinitialize()
                entries.deallocate()
            }
        }
    }

    // The entry is borrowed where the walked storage holds it, and that storage keeps the
    // observer alive until every running post has returned: the call retains nothing.
    @inline(__always)
    private func call(_ notification: BusNotification, to entry: borrowing ObserverEntry, target: ObjectIdentifier?) {
        guard !entry.observer.isRemoved else { return }
        if let wanted = entry.observer.objectID {
            guard wanted == target, entry.observer.object === notification.object else { return }
        }
        entry.observer.block(notification)
    }
}

/// Finishes the stream when the bus lets go of the observer feeding it, so that a consumer is
/// not left waiting on a bus that is gone.
private final class StreamSink: Sendable {
    let continuation: AsyncStream<BusNotification>.Continuation

    init(_ continuation: AsyncStream<BusNotification>.Continuation) {
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }
}
