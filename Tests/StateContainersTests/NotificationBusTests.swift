import AppStateCore
import XCTest

import StateContainers

/// An object to post with or capture, whose lifetime the tests watch through weak references.
private final class Sender: Sendable {}

/// Holds a token so that releasing the holder releases the token.
@MainActor
private final class TokenHolder {
    var token: ObservationToken?
}

@MainActor
final class NotificationBusTests: XCTestCase {
    private let alpha: NotificationName = "test.alpha"
    private let beta: NotificationName = "test.beta"

    // MARK: - Delivery

    func testPost_whenObserverRegisteredForName_deliversNameObjectAndUserInfo() async {
        let bus = NotificationBus()
        let sender = Sender()
        var received: [BusNotification] = []
        let token = bus.addObserver(forName: alpha) { received.append($0) }

        bus.post(name: alpha, object: sender, userInfo: ["key": "value", "count": 2])

        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(received.first?.name, alpha)
        XCTAssertTrue(received.first?.object === sender)
        XCTAssertEqual(received.first?.userInfo, ["key": "value", "count": 2])
        token.cancel()
    }

    func testPost_whenObserverRegisteredForOtherName_doesNotDeliver() async {
        let bus = NotificationBus()
        var received = 0
        let token = bus.addObserver(forName: alpha) { _ in received += 1 }

        bus.post(name: beta)

        XCTAssertEqual(received, 0)
        token.cancel()
    }

    func testPost_whenNameIsEqualButBuiltSeparately_delivers() async {
        let bus = NotificationBus()
        var received = 0
        let token = bus.addObserver(forName: NotificationName("test." + "alpha")) { _ in received += 1 }

        bus.post(name: NotificationName(rawValue: String("test.alpha".reversed().reversed())))
        bus.post(name: alpha)

        XCTAssertEqual(received, 2)
        token.cancel()
    }

    func testPost_whenSeveralObservers_deliversInRegistrationOrder() async {
        let bus = NotificationBus()
        var log: [Int] = []
        let tokens = (0..<5).map { index in bus.addObserver(forName: alpha) { _ in log.append(index) } }

        bus.post(name: alpha)

        XCTAssertEqual(log, [0, 1, 2, 3, 4])
        XCTAssertEqual(tokens.count, 5)
    }

    func testPost_whenNamedAndEveryNameObserversInterleave_deliversInRegistrationOrder() async {
        let bus = NotificationBus()
        var log: [String] = []
        let tokens = [
            bus.addObserver(forName: nil) { _ in log.append("every-1") },
            bus.addObserver(forName: alpha) { _ in log.append("alpha-1") },
            bus.addObserver(forName: beta) { _ in log.append("beta-1") },
            bus.addObserver(forName: alpha) { _ in log.append("alpha-2") },
            bus.addObserver(forName: nil) { _ in log.append("every-2") },
            bus.addObserver(forName: nil) { _ in log.append("every-3") },
            bus.addObserver(forName: alpha) { _ in log.append("alpha-3") },
        ]

        bus.post(name: alpha)

        XCTAssertEqual(log, ["every-1", "alpha-1", "alpha-2", "every-2", "every-3", "alpha-3"])
        XCTAssertEqual(tokens.count, 7)
    }

    func testPost_whenOnlyEveryNameObservers_deliversAnyName() async {
        let bus = NotificationBus()
        var names: [NotificationName] = []
        let token = bus.addObserver(forName: nil) { names.append($0.name) }

        bus.post(name: alpha)
        bus.post(name: beta)

        XCTAssertEqual(names, [alpha, beta])
        token.cancel()
    }

    func testPost_whenObserverGaveObject_deliversOnlyThatObjectsNotifications() async {
        let bus = NotificationBus()
        let observed = Sender()
        let other = Sender()
        var received: [String] = []
        let token = bus.addObserver(forName: alpha, object: observed) { notification in
            received.append(notification.object === observed ? "observed" : "other")
        }

        bus.post(name: alpha, object: other)
        bus.post(name: alpha)
        bus.post(name: alpha, object: observed)

        XCTAssertEqual(received, ["observed"])
        token.cancel()
    }

    func testPost_whenObserverGaveNoObject_deliversNotificationsFromAnyObject() async {
        let bus = NotificationBus()
        var received = 0
        let token = bus.addObserver(forName: alpha) { _ in received += 1 }

        bus.post(name: alpha, object: Sender())
        bus.post(name: alpha)

        XCTAssertEqual(received, 2)
        token.cancel()
    }

    func testPost_whenEveryNameObserverGaveObject_deliversEveryNameFromThatObjectOnly() async {
        let bus = NotificationBus()
        let observed = Sender()
        var names: [NotificationName] = []
        let token = bus.addObserver(forName: nil, object: observed) { names.append($0.name) }

        bus.post(name: alpha, object: observed)
        bus.post(name: beta, object: Sender())
        bus.post(name: beta)
        bus.post(name: beta, object: observed)

        XCTAssertEqual(names, [alpha, beta])
        token.cancel()
    }

    func testPost_whenObservedObjectDiedAndAnotherTookItsAddress_doesNotDeliver() async throws {
        let bus = NotificationBus()
        var received = 0
        var observed: Sender? = Sender()
        let address = ObjectIdentifier(try XCTUnwrap(observed))
        let token = bus.addObserver(forName: alpha, object: observed) { _ in received += 1 }
        observed = nil

        // Allocators hand a freed block to the next allocation of its size; keep the misses
        // alive so that each try is a new block.
        var impostor = Sender()
        var misses: [Sender] = []
        while ObjectIdentifier(impostor) != address, misses.count < 1_000 {
            misses.append(impostor)
            impostor = Sender()
        }
        guard ObjectIdentifier(impostor) == address else {
            throw XCTSkip("no new object was allocated at the dead object's address")
        }
        bus.post(name: alpha, object: impostor)

        XCTAssertEqual(received, 0)
        token.cancel()
    }

    func testPost_whenObserverPostsFromInsideDelivery_deliversNestedPostDepthFirst() async {
        let bus = NotificationBus()
        var log: [String] = []
        let tokens = [
            bus.addObserver(forName: alpha) { _ in
                log.append("alpha-1")
                bus.post(name: self.beta)
                log.append("alpha-1 done")
            },
            bus.addObserver(forName: beta) { _ in log.append("beta-1") },
            bus.addObserver(forName: nil) { log.append("every \($0.name)") },
            bus.addObserver(forName: alpha) { _ in log.append("alpha-2") },
        ]

        bus.post(name: alpha)

        XCTAssertEqual(log, ["alpha-1", "beta-1", "every test.beta", "alpha-1 done", "every test.alpha", "alpha-2"])
        XCTAssertEqual(tokens.count, 4)
    }

    func testPost_whenObserverRepostsSameName_deliversNestedPostToAllBeforeOuterContinues() async {
        let bus = NotificationBus()
        var log: [String] = []
        var depth = 0
        let tokens = [
            bus.addObserver(forName: alpha) { _ in
                log.append("first at \(depth)")
                if depth == 0 {
                    depth += 1
                    bus.post(name: self.alpha)
                    depth -= 1
                }
            },
            bus.addObserver(forName: alpha) { _ in log.append("second at \(depth)") },
        ]

        bus.post(name: alpha)

        XCTAssertEqual(log, ["first at 0", "first at 1", "second at 1", "second at 0"])
        XCTAssertEqual(tokens.count, 2)
    }

    func testPost_whenNoObservers_doesNothing() async {
        let bus = NotificationBus()

        bus.post(name: alpha, object: Sender(), userInfo: ["key": [1, 2, nil]])

        XCTAssertEqual(bus.observerCount, 0)
    }

    // MARK: - Changes during a post

    func testPost_whenObserverAddedDuringPost_doesNotReceiveThatPostButReceivesTheNext() async {
        let bus = NotificationBus()
        var log: [String] = []
        var added: [ObservationToken] = []
        let token = bus.addObserver(forName: alpha) { notification in
            log.append("adder \(notification.userInfo["n"]?.intValue ?? -1)")
            if added.isEmpty {
                added.append(bus.addObserver(forName: self.alpha) { log.append("added \($0.userInfo["n"]?.intValue ?? -1)") })
                added.append(bus.addObserver(forName: nil) { log.append("every \($0.userInfo["n"]?.intValue ?? -1)") })
            }
        }

        bus.post(name: alpha, userInfo: ["n": 1])
        bus.post(name: alpha, userInfo: ["n": 2])

        XCTAssertEqual(log, ["adder 1", "adder 2", "added 2", "every 2"])
        XCTAssertEqual(bus.observerCount, 3)
        token.cancel()
    }

    func testPost_whenObserverAddedDuringPost_receivesNestedPostMadeAfterwards() async {
        let bus = NotificationBus()
        var log: [String] = []
        var added: ObservationToken?
        let token = bus.addObserver(forName: alpha) { _ in
            guard added == nil else { return }
            added = bus.addObserver(forName: self.beta) { _ in log.append("added") }
            bus.post(name: self.beta)
        }

        bus.post(name: alpha)

        XCTAssertEqual(log, ["added"])
        token.cancel()
    }

    func testPost_whenLaterObserverRemovedDuringPost_doesNotReceiveIt() async {
        let bus = NotificationBus()
        var log: [String] = []
        var later: ObservationToken?
        let first = bus.addObserver(forName: alpha) { _ in
            log.append("first")
            later?.cancel()
        }
        later = bus.addObserver(forName: alpha) { _ in log.append("later") }
        let last = bus.addObserver(forName: alpha) { _ in log.append("last") }

        bus.post(name: alpha)

        XCTAssertEqual(log, ["first", "last"])
        XCTAssertEqual(bus.observerCount, 2)
        first.cancel()
        last.cancel()
    }

    func testPost_whenLaterObserverReleasedDuringPost_doesNotReceiveIt() async {
        let bus = NotificationBus()
        var log: [String] = []
        let holder = TokenHolder()
        let first = bus.addObserver(forName: alpha) { _ in
            log.append("first")
            holder.token = nil
        }
        holder.token = bus.addObserver(forName: alpha) { _ in log.append("later") }

        bus.post(name: alpha)

        XCTAssertEqual(log, ["first"])
        XCTAssertEqual(bus.observerCount, 1)
        first.cancel()
    }

    func testPost_whenEarlierObserverRemovedDuringPost_stillDeliversToTheRest() async {
        let bus = NotificationBus()
        var log: [String] = []
        var first: ObservationToken?
        first = bus.addObserver(forName: alpha) { _ in log.append("first") }
        let second = bus.addObserver(forName: alpha) { _ in
            log.append("second")
            first?.cancel()
        }
        let third = bus.addObserver(forName: alpha) { _ in log.append("third") }

        bus.post(name: alpha)
        bus.post(name: alpha)

        XCTAssertEqual(log, ["first", "second", "third", "second", "third"])
        second.cancel()
        third.cancel()
    }

    func testPost_whenObserverCancelsItself_stillDeliversToTheRestAndNeverAgainToIt() async {
        let bus = NotificationBus()
        var log: [String] = []
        var selfCancelling: ObservationToken?
        selfCancelling = bus.addObserver(forName: alpha) { _ in
            log.append("self")
            selfCancelling?.cancel()
        }
        let other = bus.addObserver(forName: alpha) { _ in log.append("other") }

        bus.post(name: alpha)
        bus.post(name: alpha)

        XCTAssertEqual(log, ["self", "other", "other"])
        XCTAssertEqual(bus.observerCount, 1)
        other.cancel()
    }

    func testPost_whenEveryNameObserverRemovedDuringPost_doesNotReceiveIt() async {
        let bus = NotificationBus()
        var log: [String] = []
        var every: ObservationToken?
        let first = bus.addObserver(forName: alpha) { _ in
            log.append("alpha")
            every?.cancel()
        }
        every = bus.addObserver(forName: nil) { _ in log.append("every") }

        bus.post(name: alpha)

        XCTAssertEqual(log, ["alpha"])
        first.cancel()
    }

    func testPost_whenObserverRemovedDuringNestedPost_outerPostSkipsIt() async {
        let bus = NotificationBus()
        var log: [String] = []
        var victim: ObservationToken?
        let poster = bus.addObserver(forName: alpha) { _ in
            log.append("poster")
            bus.post(name: self.beta)
        }
        let remover = bus.addObserver(forName: beta) { _ in
            log.append("remover")
            victim?.cancel()
        }
        victim = bus.addObserver(forName: alpha) { _ in log.append("victim") }

        bus.post(name: alpha)

        XCTAssertEqual(log, ["poster", "remover"])
        poster.cancel()
        remover.cancel()
    }

    func testPost_whenLastObserverRemovedAndAnotherAddedDuringPost_newOneDoesNotReceiveIt() async {
        let bus = NotificationBus()
        var log: [String] = []
        var replacement: ObservationToken?
        var original: ObservationToken?
        original = bus.addObserver(forName: alpha) { _ in
            log.append("original")
            original?.cancel()
            replacement = bus.addObserver(forName: self.alpha) { _ in log.append("replacement") }
        }

        bus.post(name: alpha)
        XCTAssertEqual(log, ["original"])

        bus.post(name: alpha)
        XCTAssertEqual(log, ["original", "replacement"])
        XCTAssertEqual(bus.observerCount, 1)
        replacement?.cancel()
    }

    func testPost_whenObserversRemovedAndAddedBetweenPostsOfOneName_deliversToCurrentObservers() async {
        let bus = NotificationBus()
        var log: [String] = []
        bus.post(name: alpha)

        let first = bus.addObserver(forName: alpha) { _ in log.append("first") }
        bus.post(name: alpha)
        first.cancel()
        bus.post(name: alpha)
        let second = bus.addObserver(forName: alpha) { _ in log.append("second") }
        bus.post(name: beta)
        bus.post(name: alpha)

        XCTAssertEqual(log, ["first", "second"])
        second.cancel()
    }

    // MARK: - Tokens and lifetimes

    func testCancel_whenObserversRegistered_removesThemAndCountReturnsToZero() async {
        let bus = NotificationBus()
        var received = 0
        let tokens = [
            bus.addObserver(forName: alpha) { _ in received += 1 },
            bus.addObserver(forName: nil) { _ in received += 1 },
            bus.addObserver(forName: beta, object: Sender()) { _ in received += 1 },
        ]
        XCTAssertEqual(bus.observerCount, 3)

        tokens.forEach { $0.cancel() }
        bus.post(name: alpha)

        XCTAssertEqual(bus.observerCount, 0)
        XCTAssertEqual(received, 0)
        XCTAssertTrue(tokens.allSatisfy { !$0.isActive })
    }

    func testCancel_whenCalledTwice_removesOnlyItsOwnObserver() async {
        let bus = NotificationBus()
        var log: [String] = []
        let first = bus.addObserver(forName: alpha) { _ in log.append("first") }
        let second = bus.addObserver(forName: alpha) { _ in log.append("second") }

        first.cancel()
        first.cancel()
        bus.post(name: alpha)

        XCTAssertEqual(log, ["second"])
        XCTAssertEqual(bus.observerCount, 1)
        second.cancel()
    }

    func testToken_whenReleased_removesObserver() async {
        let bus = NotificationBus()
        var received = 0
        var token: ObservationToken? = bus.addObserver(forName: alpha) { _ in received += 1 }
        XCTAssertEqual(bus.observerCount, 1)
        XCTAssertNotNil(token)

        token = nil
        bus.post(name: alpha)

        XCTAssertEqual(bus.observerCount, 0)
        XCTAssertEqual(received, 0)
    }

    func testToken_whenReleased_releasesWhatTheObserverCaptured() async {
        let bus = NotificationBus()
        weak var weakCaptured: Sender?
        var token: ObservationToken?
        do {
            let captured = Sender()
            weakCaptured = captured
            token = bus.addObserver(forName: alpha) { _ in _ = captured }
        }
        XCTAssertNotNil(weakCaptured)
        XCTAssertNotNil(token)

        token = nil

        XCTAssertNil(weakCaptured)
    }

    func testCancel_whenTokenKeptAlive_releasesWhatTheObserverCaptured() async {
        let bus = NotificationBus()
        weak var weakCaptured: Sender?
        let token: ObservationToken
        do {
            let captured = Sender()
            weakCaptured = captured
            token = bus.addObserver(forName: nil) { _ in _ = captured }
        }

        token.cancel()

        XCTAssertNil(weakCaptured)
    }

    func testAddObserver_doesNotKeepTheTokenAlive() async {
        let bus = NotificationBus()
        weak var weakToken: ObservationToken?
        do {
            let token = bus.addObserver(forName: alpha) { _ in }
            weakToken = token
            XCTAssertNotNil(weakToken)
        }

        XCTAssertNil(weakToken)
        XCTAssertEqual(bus.observerCount, 0)
    }

    func testAddObserver_whenGivenObject_doesNotKeepItAlive() async {
        let bus = NotificationBus()
        weak var weakObject: Sender?
        let token: ObservationToken
        do {
            let object = Sender()
            weakObject = object
            token = bus.addObserver(forName: alpha, object: object) { _ in }
        }

        XCTAssertNil(weakObject)
        bus.post(name: alpha, object: Sender())
        token.cancel()
    }

    func testToken_doesNotKeepTheBusAlive() async {
        weak var weakBus: NotificationBus?
        let token: ObservationToken
        do {
            let bus = NotificationBus()
            weakBus = bus
            token = bus.addObserver(forName: alpha) { _ in }
            XCTAssertTrue(token.isActive)
        }

        XCTAssertNil(weakBus)
        XCTAssertFalse(token.isActive)
        token.cancel()
    }

    func testToken_whenBusReleased_releasesWhatTheObserverCaptured() async {
        weak var weakCaptured: Sender?
        var bus: NotificationBus? = NotificationBus()
        let token: ObservationToken?
        do {
            let captured = Sender()
            weakCaptured = captured
            token = bus?.addObserver(forName: alpha) { _ in _ = captured }
        }

        bus = nil

        XCTAssertNil(weakCaptured)
        XCTAssertNotNil(token)
    }

    func testToken_whenReleasingObserverReleasesTokenOfAnotherName_removesBoth() async {
        let bus = NotificationBus()
        var holder: TokenHolder? = TokenHolder()
        holder?.token = bus.addObserver(forName: beta) { _ in }
        var token: ObservationToken? = bus.addObserver(forName: alpha) { [holder] _ in _ = holder }
        holder = nil
        XCTAssertEqual(bus.observerCount, 2)
        XCTAssertNotNil(token)

        token = nil

        XCTAssertEqual(bus.observerCount, 0)
        var received = 0
        let probe = bus.addObserver(forName: beta) { _ in received += 1 }
        bus.post(name: beta)
        XCTAssertEqual(received, 1)
        probe.cancel()
    }

    func testToken_whenRemovingObserverReleasesTokensOfTheSameName_removesThemAll() async {
        let bus = NotificationBus()
        var holder: TokenHolder? = TokenHolder()
        holder?.token = bus.addObserver(forName: alpha) { _ in }
        let ownerOfHolder = bus.addObserver(forName: alpha) { [holder] _ in _ = holder }
        let survivor = bus.addObserver(forName: alpha) { _ in }
        holder = nil

        ownerOfHolder.cancel()

        XCTAssertEqual(bus.observerCount, 1)
        XCTAssertTrue(survivor.isActive)
        survivor.cancel()
        XCTAssertEqual(bus.observerCount, 0)
    }

    func testToken_whenReleasedOffTheMainActor_removesObserver() async {
        let bus = NotificationBus()
        var token: ObservationToken? = bus.addObserver(forName: alpha) { _ in }
        let box = TokenBox(token)
        token = nil
        XCTAssertEqual(bus.observerCount, 1)

        await Task.detached { box.release() }.value

        let removed = await eventually { bus.observerCount == 0 }
        XCTAssertTrue(removed)
    }

    // MARK: - Typed messages

    func testPostMessage_whenTypedObserverRegistered_deliversDecodedMessage() async {
        let bus = NotificationBus()
        var received: [SessionDidLogIn] = []
        let token = bus.addObserver(for: SessionDidLogIn.self) { received.append($0) }

        bus.post(SessionDidLogIn(user: "alice"))

        XCTAssertEqual(received, [SessionDidLogIn(user: "alice")])
        token.cancel()
    }

    func testPostMessage_whenUntypedObserverRegistered_deliversNotificationWithMessagesUserInfo() async {
        let bus = NotificationBus()
        var received: [BusNotification] = []
        let token = bus.addObserver(forName: .sessionDidLogIn) { received.append($0) }

        bus.post(SessionDidLogIn(user: "alice"))

        XCTAssertEqual(received.map(\.name), [.sessionDidLogIn])
        XCTAssertEqual(received.first?.userInfo, ["user": "alice"])
        token.cancel()
    }

    func testAddObserverForType_whenUserInfoMalformed_skipsItWithoutTrapping() async {
        let bus = NotificationBus()
        var received: [KeyboardWillShow] = []
        let token = bus.addObserver(for: KeyboardWillShow.self) { received.append($0) }
        let frame = Rect(x: 0, y: 500, width: 1280, height: 300)

        bus.post(name: .keyboardWillShow)
        bus.post(name: .keyboardWillShow, userInfo: ["frameEnd": "tall"])
        bus.post(name: .keyboardWillShow, userInfo: ["frameEnd": ["x": 0, "y": 500, "width": 1280]])
        bus.post(KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: 0.25, curve: .easeOut))

        XCTAssertEqual(received, [KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: 0.25, curve: .easeOut)])
        token.cancel()
    }

    func testAddObserverForType_whenGivenObject_deliversOnlyThatObjectsMessages() async {
        let bus = NotificationBus()
        let observed = Sender()
        var users: [String] = []
        let token = bus.addObserver(for: SessionDidLogIn.self, object: observed) { users.append($0.user) }

        bus.post(SessionDidLogIn(user: "other"), object: Sender())
        bus.post(SessionDidLogIn(user: "alice"), object: observed)

        XCTAssertEqual(users, ["alice"])
        token.cancel()
    }

    // MARK: - Async streams

    func testNotifications_whenNotificationsPosted_yieldsThemInOrder() async {
        let bus = NotificationBus()
        let collector = Collector(bus.notifications(named: alpha))

        bus.post(name: alpha, userInfo: ["n": 1])
        bus.post(name: beta, userInfo: ["n": 2])
        bus.post(name: alpha, userInfo: ["n": 3])

        let collected = await eventually { collector.received.count >= 2 }
        XCTAssertTrue(collected)
        XCTAssertEqual(collector.received.map { $0.userInfo["n"] }, [1, 3])
        XCTAssertEqual(bus.observerCount, 1)
        collector.cancel()
    }

    func testNotifications_whenGivenObject_yieldsOnlyThatObjectsNotifications() async {
        let bus = NotificationBus()
        let observed = Sender()
        let collector = Collector(bus.notifications(named: alpha, object: observed))

        bus.post(name: alpha, object: Sender(), userInfo: ["n": 1])
        bus.post(name: alpha, object: observed, userInfo: ["n": 2])
        bus.post(name: alpha, object: observed, userInfo: ["n": 3])

        let collected = await eventually { collector.received.count >= 2 }
        XCTAssertTrue(collected)
        XCTAssertEqual(collector.received.map { $0.userInfo["n"] }, [2, 3])
        collector.cancel()
    }

    func testNotifications_whenConsumingTaskCancelled_removesObserverAndFinishes() async {
        let bus = NotificationBus()
        let collector = Collector(bus.notifications(named: alpha))
        XCTAssertEqual(bus.observerCount, 1)

        collector.cancel()

        let removed = await eventually { bus.observerCount == 0 && collector.isFinished }
        XCTAssertTrue(removed)
    }

    func testNotifications_whenStreamReleasedWithoutBeingConsumed_removesObserver() async {
        let bus = NotificationBus()
        do {
            let stream = bus.notifications(named: alpha)
            XCTAssertEqual(bus.observerCount, 1)
            _ = stream
        }

        let removed = await eventually { bus.observerCount == 0 }
        XCTAssertTrue(removed)
    }

    func testNotifications_whenBusReleased_deliversWhatWasPostedThenFinishes() async {
        var bus: NotificationBus? = NotificationBus()
        let collector = Collector(bus?.notifications(named: alpha) ?? AsyncStream { $0.finish() })
        bus?.post(name: alpha)

        bus = nil

        let finished = await eventually { collector.isFinished }
        XCTAssertTrue(finished)
        XCTAssertEqual(collector.received.map(\.name), [alpha])
        collector.cancel()
    }

    // MARK: - Helpers

    /// Gives queued main-actor jobs (token removals hopping back from elsewhere) a bounded number
    /// of turns to run: a count of turns, not a duration, so the test cannot become timing-dependent.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        var turns = 0
        while !condition(), turns < 1_000 {
            await Task.yield()
            turns += 1
        }
        return condition()
    }
}

/// Consumes a stream in a task of its own, so that a test can check what arrived without
/// awaiting a stream that a broken bus would never end.
@MainActor
private final class Collector {
    private(set) var received: [BusNotification] = []
    private(set) var isFinished = false
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<BusNotification>) {
        task = Task { [weak self] in
            for await notification in stream {
                self?.received.append(notification)
            }
            self?.isFinished = true
        }
    }

    func cancel() {
        task?.cancel()
    }
}

/// Carries a token to another isolation domain so that its last reference is released there.
private final class TokenBox: @unchecked Sendable {
    // Only touched by `release()`, called once from one task.
    private var token: ObservationToken?

    init(_ token: ObservationToken?) {
        self.token = token
    }

    func release() {
        token = nil
    }
}
