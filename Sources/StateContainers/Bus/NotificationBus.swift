/// A notification bus with `NotificationCenter`'s contract, made fit for a daemon: a tree's
/// controllers talk through it, and the socket posts to it.
///
/// Delivery is synchronous, on the main actor, in registration order. A post made by an observer
/// is delivered completely before the outer post goes on (depth-first, as Foundation does). An
/// observer added during a post does not receive that post; one removed during a post before
/// its turn does not receive it either.
///
/// Posting is on the hot path of every event, so it neither allocates nor retains for each
/// observer it calls (one registered for an object costs a weak load when that object posts):
/// observers live in one contiguous array per name, sorted by registration, and a post reads a
/// snapshot of that array (registrations during the post copy it rather than the post copying
/// it). Removals during a post bump a counter, so the post only searches the live observers
/// again once something was actually removed.
@MainActor
public final class NotificationBus {
    // The properties a post reads skip the runtime's exclusivity check, which costs more than
    // a delivery. It could not fire: the bus never calls out during an access to them, as
    // observers run on a snapshot and a removed closure is only released after its removal.
    private var listsByName: [NotificationName: ObserverList] = [:]
    private let everyName = ObserverList()
    @exclusivity(unchecked) private var cachedName: NotificationName?
    @exclusivity(unchecked) private var cachedList: ObserverList?
    @exclusivity(unchecked) private var removals: UInt64 = 0
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
    public func post(name: NotificationName, object: (any AnyObject & Sendable)? = nil, userInfo: [String: JSONValue] = [:]) {
        let namedObservers = observers(named: name)
        let everyNameObservers = everyName.observers
        if namedObservers.isEmpty && everyNameObservers.isEmpty { return }

        let notification = BusNotification(name: name, object: object, userInfo: userInfo)
        let delivery = Delivery(target: object.map(ObjectIdentifier.init), removals: removals)
        var nextNamed = 0
        var nextEveryName = 0
        // Named and every-name observers are two sorted runs of registration ids: merge them.
        while nextNamed < namedObservers.count, nextEveryName < everyNameObservers.count {
            if namedObservers[nextNamed].id < everyNameObservers[nextEveryName].id {
                deliver(notification, to: namedObservers[nextNamed], forName: name, delivery)
                nextNamed += 1
            } else {
                deliver(notification, to: everyNameObservers[nextEveryName], forName: nil, delivery)
                nextEveryName += 1
            }
        }
        while nextNamed < namedObservers.count {
            deliver(notification, to: namedObservers[nextNamed], forName: name, delivery)
            nextNamed += 1
        }
        while nextEveryName < everyNameObservers.count {
            deliver(notification, to: everyNameObservers[nextEveryName], forName: nil, delivery)
            nextEveryName += 1
        }
    }

    /// Posts a typed message as the notification it converts to.
    /// - Parameters:
    ///   - message: The message; its type gives the name and it gives the `userInfo`.
    ///   - object: The object posting the message, if any.
    public func post<M: BusMessage>(_ message: M, object: (any AnyObject & Sendable)? = nil) {
        post(name: M.name, object: object, userInfo: message.userInfo)
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
        let observer = Observer(
            id: lastID,
            objectID: object.map(ObjectIdentifier.init),
            object: object.map(WeakObject.init),
            block: block
        )
        list(forAdding: name).observers.append(observer)
        observerCount += 1
        return ObservationToken(bus: self, name: name, id: observer.id)
    }

    /// Registers a closure to receive one type of message.
    ///
    /// A notification of the message's name whose `userInfo` does not decode (posted from the
    /// socket with a missing key, say) is skipped.
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
            guard let message = M(notification) else { return }
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
        let removed = list.observers.remove(at: index)
        // Releasing the closure can run deinits that cancel other tokens; the bookkeeping must
        // be finished by then.
        withExtendedLifetime(removed) {
            removals &+= 1
            observerCount -= 1
            if let name, list.observers.isEmpty {
                listsByName[name] = nil
                cachedName = nil
                cachedList = nil
            }
        }
    }

    // Posts tend to repeat one name, and comparing a name with itself is cheaper than hashing it.
    private func observers(named name: NotificationName) -> ContiguousArray<Observer> {
        if let cachedName, cachedName == name { return cachedList?.observers ?? [] }
        let list = listsByName[name]
        cachedName = name
        cachedList = list
        return list?.observers ?? []
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
        cachedName = nil
        cachedList = nil
        return list
    }

    // Takes the observer `borrowing` so that calling its closure costs no retain and release.
    @inline(__always)
    private func deliver(
        _ notification: BusNotification,
        to observer: borrowing Observer,
        forName name: NotificationName?,
        _ delivery: Delivery
    ) {
        if let wanted = observer.objectID {
            guard wanted == delivery.target, observer.object?.value === notification.object else { return }
        }
        if removals != delivery.removals, registeredList(forName: name)?.index(of: observer.id) == nil { return }
        observer.block(notification)
    }
}

/// What one post compares each observer against.
private struct Delivery {
    let target: ObjectIdentifier?
    let removals: UInt64
}

/// The observers of one name (or of every name), in registration order.
private final class ObserverList {
    @exclusivity(unchecked) var observers: ContiguousArray<Observer> = []

    func index(of id: UInt64) -> Int? {
        var low = 0
        var high = observers.count
        while low < high {
            let middle = low + (high - low) / 2
            if observers[middle].id < id {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < observers.count && observers[low].id == id ? low : nil
    }
}

private struct Observer {
    let id: UInt64
    // Compared first so that observers of other objects are skipped without loading a weak
    // reference; the weak reference then rules out a new object at a dead one's address.
    let objectID: ObjectIdentifier?
    let object: WeakObject?
    let block: @MainActor (BusNotification) -> Void
}

private final class WeakObject {
    weak var value: AnyObject?

    init(_ value: AnyObject) {
        self.value = value
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
