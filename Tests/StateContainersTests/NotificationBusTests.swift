import AppStateCore
import StateContainers
import TestSupport
import XCTest

/// An object to post with or capture, whose lifetime the tests watch through weak references.
private final class Sender: Sendable {}

/// Holds a token so that releasing the holder releases the token.
@MainActor
private final class TokenHolder {
    var token: ObservationToken?
}

@MainActor
final class NotificationBusTests: AppStateTestCase {
    private let alpha: NotificationName = "test.alpha"
    private let beta: NotificationName = "test.beta"
    /// The bus under test; the tests of a bus's own lifetime make their own.
    private let bus = NotificationBus()
    /// What the observers that ``observe(_:object:as:then:)`` registered received, in order.
    private var received: [String] = []

    /// Registers an observer of `name` (of every name when nil), of `object`'s notifications
    /// only when given, that appends `label` to ``received`` for each notification it gets
    /// and then runs `action`: the observer most tests need, written once.
    private func observe(
        _ name: NotificationName?, object: Sender? = nil, as label: String, then action: @escaping @MainActor () -> Void = {}
    ) -> ObservationToken {
        bus.addObserver(forName: name, object: object) { [unowned self] _ in
            received.append(label)
            action()
        }
    }

    /// Registers on `bus` an observer of `name` whose block captures a new object, so that a
    /// test can watch when the object is let go of: the token, and the object, weakly.
    private func observeCapturingAnObject(_ name: NotificationName?, on bus: NotificationBus) -> (token: ObservationToken, captured: () -> Sender?) {
        let captured = Sender()
        let token = bus.addObserver(forName: name) { _ in _ = captured }
        return (token, { [weak captured] in captured })
    }

    // MARK: - Delivery

    func testPost_whenObserverRegisteredForName_deliversNameObjectAndUserInfo() async {
        let sender = Sender()
        var delivered: [BusNotification] = []
        let token = bus.addObserver(forName: alpha) { delivered.append($0) }

        bus.post(name: alpha, object: sender, userInfo: ["key": "value", "count": 2])

        XCTAssertEqual(delivered.count, 1)
        XCTAssertEqual(delivered.first?.name, alpha)
        XCTAssertTrue(delivered.first?.object === sender)
        XCTAssertEqual(delivered.first?.userInfo, ["key": "value", "count": 2])
        token.cancel()
    }

    func testPost_whenObserverRegisteredForOtherName_doesNotDeliver() async {
        let token = observe(alpha, as: "alpha")

        bus.post(name: beta)

        XCTAssertEqual(received, [])
        token.cancel()
    }

    func testPost_whenNameIsEqualButBuiltSeparately_delivers() async {
        let token = observe(NotificationName("test." + "alpha"), as: "alpha")

        bus.post(name: NotificationName(rawValue: String("test.alpha".reversed().reversed())))
        bus.post(name: alpha)

        XCTAssertEqual(received, ["alpha", "alpha"])
        token.cancel()
    }

    func testPost_whenSeveralObservers_deliversInRegistrationOrder() async {
        let tokens = (0..<5).map { observe(alpha, as: "\($0)") }

        bus.post(name: alpha)

        XCTAssertEqual(received, ["0", "1", "2", "3", "4"])
        XCTAssertEqual(tokens.count, 5)
    }

    func testPost_whenNamedAndEveryNameObserversInterleave_deliversInRegistrationOrder() async {
        let observers: [(name: NotificationName?, label: String)] = [
            (nil, "every-1"), (alpha, "alpha-1"), (beta, "beta-1"), (alpha, "alpha-2"), (nil, "every-2"), (nil, "every-3"), (alpha, "alpha-3"),
        ]
        let tokens = observers.map { observe($0.name, as: $0.label) }

        bus.post(name: alpha)

        XCTAssertEqual(received, ["every-1", "alpha-1", "alpha-2", "every-2", "every-3", "alpha-3"])
        XCTAssertEqual(tokens.count, 7)
    }

    func testPost_whenOnlyEveryNameObservers_deliversAnyName() async {
        var names: [NotificationName] = []
        let token = bus.addObserver(forName: nil) { names.append($0.name) }

        bus.post(name: alpha)
        bus.post(name: beta)

        XCTAssertEqual(names, [alpha, beta])
        token.cancel()
    }

    func testPost_whenObserverGaveObject_deliversOnlyThatObjectsNotifications() async {
        let observed = Sender()
        let other = Sender()
        let token = observe(alpha, object: observed, as: "observed")

        bus.post(name: alpha, object: other)
        bus.post(name: alpha)
        bus.post(name: alpha, object: observed)

        XCTAssertEqual(received, ["observed"])
        token.cancel()
    }

    func testPost_whenObserverGaveNoObject_deliversNotificationsFromAnyObject() async {
        let token = observe(alpha, as: "alpha")

        bus.post(name: alpha, object: Sender())
        bus.post(name: alpha)

        XCTAssertEqual(received, ["alpha", "alpha"])
        token.cancel()
    }

    func testPost_whenEveryNameObserverGaveObject_deliversEveryNameFromThatObjectOnly() async {
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
        var observed: Sender? = Sender()
        let address = ObjectIdentifier(try XCTUnwrap(observed))
        let token = observe(alpha, object: observed, as: "alpha")
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

        XCTAssertEqual(received, [])
        token.cancel()
    }

    func testPost_whenObserverPostsFromInsideDelivery_deliversNestedPostDepthFirst() async {
        let tokens = [
            observe(alpha, as: "alpha-1") { [unowned self] in
                bus.post(name: beta)
                received.append("alpha-1 done")
            },
            observe(beta, as: "beta-1"),
            bus.addObserver(forName: nil) { [unowned self] in received.append("every \($0.name)") },
            observe(alpha, as: "alpha-2"),
        ]

        bus.post(name: alpha)

        XCTAssertEqual(received, ["alpha-1", "beta-1", "every test.beta", "alpha-1 done", "every test.alpha", "alpha-2"])
        XCTAssertEqual(tokens.count, 4)
    }

    func testPost_whenObserverRepostsSameName_deliversNestedPostToAllBeforeOuterContinues() async {
        var depth = 0
        let tokens = [
            bus.addObserver(forName: alpha) { [unowned self] _ in
                received.append("first at \(depth)")
                if depth == 0 {
                    depth += 1
                    bus.post(name: alpha)
                    depth -= 1
                }
            },
            bus.addObserver(forName: alpha) { [unowned self] _ in received.append("second at \(depth)") },
        ]

        bus.post(name: alpha)

        XCTAssertEqual(received, ["first at 0", "first at 1", "second at 1", "second at 0"])
        XCTAssertEqual(tokens.count, 2)
    }

    func testPost_whenNoObservers_doesNothing() async {
        bus.post(name: alpha, object: Sender(), userInfo: ["key": [1, 2, nil]])

        XCTAssertEqual(bus.observerCount, 0)
    }

    // MARK: - Changes during a post

    func testPost_whenObserverAddedDuringPost_doesNotReceiveThatPostButReceivesTheNext() async {
        var added: [ObservationToken] = []
        /// Records `label` with the notification's `n`.
        func numbered(_ label: String) -> @MainActor (BusNotification) -> Void {
            { [unowned self] in received.append("\(label) \($0.userInfo["n"]?.intValue ?? -1)") }
        }
        let token = bus.addObserver(forName: alpha) { [unowned self] notification in
            numbered("adder")(notification)
            if added.isEmpty {
                added.append(bus.addObserver(forName: alpha, using: numbered("added")))
                added.append(bus.addObserver(forName: nil, using: numbered("every")))
            }
        }

        bus.post(name: alpha, userInfo: ["n": 1])
        bus.post(name: alpha, userInfo: ["n": 2])

        XCTAssertEqual(received, ["adder 1", "adder 2", "added 2", "every 2"])
        XCTAssertEqual(bus.observerCount, 3)
        token.cancel()
    }

    func testPost_whenObserverAddedDuringPost_receivesNestedPostMadeAfterwards() async {
        var added: ObservationToken?
        let token = bus.addObserver(forName: alpha) { [unowned self] _ in
            guard added == nil else { return }
            added = observe(beta, as: "added")
            bus.post(name: beta)
        }

        bus.post(name: alpha)

        XCTAssertEqual(received, ["added"])
        token.cancel()
    }

    func testPost_whenLaterObserverRemovedDuringPost_doesNotReceiveIt() async {
        var later: ObservationToken?
        let first = observe(alpha, as: "first") { later?.cancel() }
        later = observe(alpha, as: "later")
        let last = observe(alpha, as: "last")

        bus.post(name: alpha)

        XCTAssertEqual(received, ["first", "last"])
        XCTAssertEqual(bus.observerCount, 2)
        first.cancel()
        last.cancel()
    }

    func testPost_whenLaterObserverReleasedDuringPost_doesNotReceiveIt() async {
        let holder = TokenHolder()
        let first = observe(alpha, as: "first") { holder.token = nil }
        holder.token = observe(alpha, as: "later")

        bus.post(name: alpha)

        XCTAssertEqual(received, ["first"])
        XCTAssertEqual(bus.observerCount, 1)
        first.cancel()
    }

    func testPost_whenEarlierObserverRemovedDuringPost_stillDeliversToTheRest() async {
        let first = observe(alpha, as: "first")
        let second = observe(alpha, as: "second") { first.cancel() }
        let third = observe(alpha, as: "third")

        bus.post(name: alpha)
        bus.post(name: alpha)

        XCTAssertEqual(received, ["first", "second", "third", "second", "third"])
        second.cancel()
        third.cancel()
    }

    func testPost_whenObserverCancelsItself_stillDeliversToTheRestAndNeverAgainToIt() async {
        var selfCancelling: ObservationToken?
        selfCancelling = observe(alpha, as: "self") { selfCancelling?.cancel() }
        let other = observe(alpha, as: "other")

        bus.post(name: alpha)
        bus.post(name: alpha)

        XCTAssertEqual(received, ["self", "other", "other"])
        XCTAssertEqual(bus.observerCount, 1)
        other.cancel()
    }

    func testPost_whenEveryNameObserverRemovedDuringPost_doesNotReceiveIt() async {
        var every: ObservationToken?
        let first = observe(alpha, as: "alpha") { every?.cancel() }
        every = observe(nil, as: "every")

        bus.post(name: alpha)

        XCTAssertEqual(received, ["alpha"])
        first.cancel()
    }

    func testPost_whenObserverRemovedDuringNestedPost_outerPostSkipsIt() async {
        var victim: ObservationToken?
        let poster = observe(alpha, as: "poster") { [unowned self] in bus.post(name: beta) }
        let remover = observe(beta, as: "remover") { victim?.cancel() }
        victim = observe(alpha, as: "victim")

        bus.post(name: alpha)

        XCTAssertEqual(received, ["poster", "remover"])
        poster.cancel()
        remover.cancel()
    }

    func testPost_whenLastObserverRemovedAndAnotherAddedDuringPost_newOneDoesNotReceiveIt() async {
        var replacement: ObservationToken?
        var original: ObservationToken?
        original = observe(alpha, as: "original") { [unowned self] in
            original?.cancel()
            replacement = observe(alpha, as: "replacement")
        }

        bus.post(name: alpha)
        XCTAssertEqual(received, ["original"])

        bus.post(name: alpha)
        XCTAssertEqual(received, ["original", "replacement"])
        XCTAssertEqual(bus.observerCount, 1)
        replacement?.cancel()
    }

    func testPost_whenObserversRemovedAndAddedBetweenPostsOfOneName_deliversToCurrentObservers() async {
        bus.post(name: alpha)

        let first = observe(alpha, as: "first")
        bus.post(name: alpha)
        first.cancel()
        bus.post(name: alpha)
        let second = observe(alpha, as: "second")
        bus.post(name: beta)
        bus.post(name: alpha)

        XCTAssertEqual(received, ["first", "second"])
        second.cancel()
    }

    // MARK: - Tokens and lifetimes

    func testCancel_whenObserversRegistered_removesThemAndCountReturnsToZero() async {
        let tokens = [observe(alpha, as: "alpha"), observe(nil, as: "every"), observe(beta, object: Sender(), as: "beta")]
        XCTAssertEqual(bus.observerCount, 3)

        for token in tokens { token.cancel() }
        bus.post(name: alpha)

        XCTAssertEqual(bus.observerCount, 0)
        XCTAssertEqual(received, [])
        XCTAssertTrue(tokens.allSatisfy { !$0.isActive })
    }

    func testCancel_whenCalledTwice_removesOnlyItsOwnObserver() async {
        let first = observe(alpha, as: "first")
        let second = observe(alpha, as: "second")

        first.cancel()
        first.cancel()
        bus.post(name: alpha)

        XCTAssertEqual(received, ["second"])
        XCTAssertEqual(bus.observerCount, 1)
        second.cancel()
    }

    func testToken_whenReleased_removesObserver() async {
        var token: ObservationToken? = observe(alpha, as: "alpha")
        XCTAssertEqual(bus.observerCount, 1)
        XCTAssertNotNil(token)

        token = nil
        bus.post(name: alpha)

        XCTAssertEqual(bus.observerCount, 0)
        XCTAssertEqual(received, [])
    }

    func testToken_whenReleased_releasesWhatTheObserverCaptured() async {
        var token: ObservationToken?
        let captured: () -> Sender?
        (token, captured) = observeCapturingAnObject(alpha, on: bus)
        XCTAssertNotNil(captured())
        XCTAssertNotNil(token)

        token = nil

        XCTAssertNil(captured())
    }

    func testCancel_whenTokenKeptAlive_releasesWhatTheObserverCaptured() async {
        let (token, captured) = observeCapturingAnObject(nil, on: bus)

        token.cancel()

        XCTAssertNil(captured())
    }

    func testAddObserver_doesNotKeepTheTokenAlive() async {
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
        var object: Sender? = Sender()
        weak let weakObject = object
        let token = bus.addObserver(forName: alpha, object: object) { _ in }

        object = nil

        XCTAssertNil(weakObject)
        bus.post(name: alpha, object: Sender())
        token.cancel()
    }

    func testToken_doesNotKeepTheBusAlive() async {
        weak var weakBus: NotificationBus?
        let token: ObservationToken
        do {
            let shortLived = NotificationBus()
            weakBus = shortLived
            token = shortLived.addObserver(forName: alpha) { _ in }
            XCTAssertTrue(token.isActive)
        }

        XCTAssertNil(weakBus)
        XCTAssertFalse(token.isActive)
        token.cancel()
    }

    func testToken_whenBusReleased_releasesWhatTheObserverCaptured() async {
        var shortLived: NotificationBus? = NotificationBus()
        let observer = shortLived.map { observeCapturingAnObject(alpha, on: $0) }

        shortLived = nil

        XCTAssertNil(observer?.captured())
        XCTAssertNotNil(observer?.token)
    }

    func testToken_whenReleasingObserverReleasesTokenOfAnotherName_removesBoth() async {
        var holder: TokenHolder? = TokenHolder()
        holder?.token = bus.addObserver(forName: beta) { _ in }
        var token: ObservationToken? = bus.addObserver(forName: alpha) { [holder] _ in _ = holder }
        holder = nil
        XCTAssertEqual(bus.observerCount, 2)
        XCTAssertNotNil(token)

        token = nil

        XCTAssertEqual(bus.observerCount, 0)
        let probe = observe(beta, as: "probe")
        bus.post(name: beta)
        XCTAssertEqual(received, ["probe"])
        probe.cancel()
    }

    func testToken_whenRemovingObserverReleasesTokensOfTheSameName_removesThemAll() async {
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
        var messages: [SessionDidLogIn] = []
        let token = bus.addObserver(for: SessionDidLogIn.self) { messages.append($0) }

        bus.post(SessionDidLogIn(user: "alice"))

        XCTAssertEqual(messages, [SessionDidLogIn(user: "alice")])
        token.cancel()
    }

    func testPostMessage_whenUntypedObserverRegistered_deliversNotificationWithMessagesUserInfo() async {
        var delivered: [BusNotification] = []
        let token = bus.addObserver(forName: .sessionDidLogIn) { delivered.append($0) }

        bus.post(SessionDidLogIn(user: "alice"))

        XCTAssertEqual(delivered.map(\.name), [.sessionDidLogIn])
        XCTAssertEqual(delivered.first?.userInfo, ["user": "alice"])
        token.cancel()
    }

    func testAddObserverForType_whenUserInfoMalformed_skipsItWithoutTrapping() async {
        var messages: [KeyboardWillShow] = []
        let token = bus.addObserver(for: KeyboardWillShow.self) { messages.append($0) }
        let frame = Rect(x: 0, y: 500, width: 1280, height: 300)

        bus.post(name: .keyboardWillShow)
        bus.post(name: .keyboardWillShow, userInfo: ["frameEnd": "tall"])
        bus.post(name: .keyboardWillShow, userInfo: ["frameEnd": ["x": 0, "y": 500, "width": 1280]])
        bus.post(KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: 0.25, curve: .easeOut))

        XCTAssertEqual(messages, [KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: 0.25, curve: .easeOut)])
        token.cancel()
    }

    func testAddObserverForType_whenGivenObject_deliversOnlyThatObjectsMessages() async {
        let observed = Sender()
        var users: [String] = []
        let token = bus.addObserver(for: SessionDidLogIn.self, object: observed) { users.append($0.user) }

        bus.post(SessionDidLogIn(user: "other"), object: Sender())
        bus.post(SessionDidLogIn(user: "alice"), object: observed)

        XCTAssertEqual(users, ["alice"])
        token.cancel()
    }

    func testPostMessage_whenOnlyTypedObservers_deliversThePostedMessageWithoutBuildingUserInfo() async {
        let builds = BuildCount()
        var messages: [Probe] = []
        let tokens = [
            bus.addObserver(for: Probe.self) { messages.append($0) },
            bus.addObserver(for: Probe.self) { messages.append($0) },
        ]

        bus.post(Probe(id: 7, builds: builds))

        XCTAssertEqual(messages.map(\.id), [7, 7])
        XCTAssertTrue(messages.allSatisfy { $0.builds === builds }, "a message decoded from userInfo has no builds")
        XCTAssertEqual(builds.value, 0)
        XCTAssertEqual(tokens.count, 2)
    }

    func testPostMessage_whenUntypedObserversRegistered_seeTheUserInfoTheMessageEncodesTo() async {
        let frameBegin = Rect(x: 0, y: 800, width: 1280, height: 320)
        let frameEnd = Rect(x: 0, y: 480, width: 1280, height: 320)
        let message = KeyboardWillShow(frameBegin: frameBegin, frameEnd: frameEnd, duration: -1, curve: .easeOut)
        var delivered: [BusNotification] = []
        let tokens = [
            bus.addObserver(forName: .keyboardWillShow) { delivered.append($0) },
            bus.addObserver(for: KeyboardWillShow.self) { _ in },
            bus.addObserver(forName: nil) { delivered.append($0) },
        ]

        bus.post(message)

        XCTAssertEqual(delivered.map(\.name), [.keyboardWillShow, .keyboardWillShow])
        XCTAssertEqual(delivered.map(\.userInfo), [message.userInfo, message.userInfo])
        XCTAssertEqual(
            delivered.first?.userInfo,
            [
                "frameBegin": ["x": 0, "y": 800, "width": 1280, "height": 320],
                "frameEnd": ["x": 0, "y": 480, "width": 1280, "height": 320],
                "duration": 0,
                "curve": "easeOut",
            ]
        )
        XCTAssertEqual(tokens.count, 3)
    }

    func testPostMessage_whenUntypedObserverReadsUserInfo_buildsItFromTheMessage() async {
        let builds = BuildCount()
        var userInfos: [[String: JSONValue]] = []
        let token = bus.addObserver(forName: Probe.name) { userInfos.append($0.userInfo) }

        bus.post(Probe(id: 7, builds: builds))

        XCTAssertEqual(userInfos, [["id": 7]])
        XCTAssertEqual(builds.value, 1)
        token.cancel()
    }

    func testPostMessage_whenKeyboardValuesNeedCleaning_typedObserverReceivesWhatDecodingTheUserInfoGave() async {
        let frame = Rect(x: 0, y: 480, width: 1280, height: 320)
        let infinite = Rect(x: 0, y: .infinity, width: 1280, height: 320)
        var messages: [KeyboardWillShow] = []
        let token = bus.addObserver(for: KeyboardWillShow.self) { messages.append($0) }
        let posted = [
            KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: -1, curve: .easeIn),
            KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: .nan, curve: .linear),
            KeyboardWillShow(frameBegin: infinite, frameEnd: frame, duration: 0.25, curve: .easeOut),
            KeyboardWillShow(frameBegin: frame, frameEnd: infinite, duration: 0.25, curve: .easeOut),
        ]

        for message in posted { bus.post(message) }

        XCTAssertEqual(
            messages,
            [
                KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: 0, curve: .easeIn),
                KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: 0, curve: .linear),
                KeyboardWillShow(frameBegin: frame, frameEnd: frame, duration: 0.25, curve: .easeOut),
            ]
        )
        XCTAssertEqual(messages, posted.compactMap { KeyboardWillShow(BusNotification(name: .keyboardWillShow, userInfo: $0.userInfo)) })
        token.cancel()
    }

    func testPostMessage_whenTypeKeepsTheDefaultRoundTrip_typedObserverReceivesTheMessageDecodedFromItsUserInfo() async {
        var ids: [Int] = []
        let token = bus.addObserver(for: ClampedProbe.self) { ids.append($0.id) }

        bus.post(ClampedProbe(id: 42))
        bus.post(ClampedProbe(id: 4))

        XCTAssertEqual(ids, [10, 4])
        token.cancel()
    }

    func testAddObserverForType_whenPostedByNameWithUserInfo_decodesItAndSkipsWhatDoesNotDecode() async {
        let frame = Rect(x: 0, y: 480, width: 1280, height: 320)
        let message = KeyboardWillHide(frameBegin: frame, frameEnd: frame.offsetBy(dx: 0, dy: 320), duration: 0.3, curve: .linear)
        var keyboardMessages: [KeyboardWillHide] = []
        var probes: [Probe] = []
        let tokens = [
            bus.addObserver(for: KeyboardWillHide.self) { keyboardMessages.append($0) },
            bus.addObserver(for: Probe.self) { probes.append($0) },
        ]

        bus.post(name: .keyboardWillHide, userInfo: message.userInfo)
        bus.post(name: .keyboardWillHide, userInfo: ["frameBegin": ["x": 0, "y": 480, "width": 1280, "height": 320]])
        bus.post(name: .keyboardWillHide, userInfo: ["frameEnd": ["x": 0, "y": 480, "width": 1280, "height": 320], "duration": -2])
        bus.post(name: Probe.name, userInfo: ["id": 5])
        bus.post(name: Probe.name, userInfo: ["id": "five"])

        XCTAssertEqual(keyboardMessages, [message, KeyboardWillHide(frameBegin: frame, frameEnd: frame, duration: 0, curve: .easeInOut)])
        XCTAssertEqual(probes.map(\.id), [5])
        XCTAssertNil(probes.first?.builds)
        XCTAssertEqual(tokens.count, 2)
    }

    func testAddObserverForType_whenAnotherTypeOfTheNameIsPosted_decodesItsUserInfo() async {
        var clamped: [Int] = []
        var probes: [Int] = []
        let tokens = [
            bus.addObserver(for: ClampedProbe.self) { clamped.append($0.id) },
            bus.addObserver(for: Probe.self) { probes.append($0.id) },
        ]

        bus.post(Probe(id: 42))
        bus.post(ClampedProbe(id: 3))

        XCTAssertEqual(clamped, [10, 3])
        XCTAssertEqual(probes, [42, 3])
        XCTAssertEqual(tokens.count, 2)
    }

    // MARK: - Async streams

    func testNotifications_whenNotificationsPosted_yieldsThemInOrder() async {
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
        let collector = Collector(bus.notifications(named: alpha))
        XCTAssertEqual(bus.observerCount, 1)

        collector.cancel()

        let removed = await eventually { bus.observerCount == 0 && collector.isFinished }
        XCTAssertTrue(removed)
    }

    func testNotifications_whenStreamReleasedWithoutBeingConsumed_removesObserver() async {
        do {
            let stream = bus.notifications(named: alpha)
            XCTAssertEqual(bus.observerCount, 1)
            _ = stream
        }

        let removed = await eventually { bus.observerCount == 0 }
        XCTAssertTrue(removed)
    }

    func testNotifications_whenBusReleased_deliversWhatWasPostedThenFinishes() async {
        var shortLived: NotificationBus? = NotificationBus()
        let collector = Collector(shortLived?.notifications(named: alpha) ?? AsyncStream { $0.finish() })
        shortLived?.post(name: alpha)

        shortLived = nil

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

/// Counts how often a ``Probe`` builds its `userInfo`.
private final class BuildCount: @unchecked Sendable {
    // Only touched on the main actor, by a test and the probes it posts.
    var value = 0
}

/// A message whose `userInfo` leaves out `builds`, so that an observer can tell the message
/// posted (which has it) from one decoded from `userInfo` (which has not), and counts in it
/// how often `userInfo` is built.
private struct Probe: BusMessage {
    static let name: NotificationName = "test.probe"

    let id: Int
    let builds: BuildCount?

    init(id: Int, builds: BuildCount? = nil) {
        self.id = id
        self.builds = builds
    }

    init?(_ notification: BusNotification) {
        guard notification.name == Self.name, let id = notification.userInfo["id"]?.intValue else { return nil }
        self.init(id: id)
    }

    var userInfo: [String: JSONValue] {
        builds?.value += 1
        return ["id": .number(Double(id))]
    }

    var roundTripped: Self? { self }
}

/// A message of ``Probe``'s name whose decoding clamps `id` to 0...10, and that keeps the
/// default ``BusMessage/roundTripped``.
private struct ClampedProbe: BusMessage {
    static let name = Probe.name

    let id: Int

    init(id: Int) {
        self.id = id
    }

    init?(_ notification: BusNotification) {
        guard notification.name == Self.name, let id = notification.userInfo["id"]?.intValue else { return nil }
        self.id = min(max(id, 0), 10)
    }

    var userInfo: [String: JSONValue] { ["id": .number(Double(id))] }
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
