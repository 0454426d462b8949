import AppStateCore
import Foundation
import StateContainers
import XCTest

final class LoginStateControllerTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .plain }

    private func makeSession(duration: Duration = .zero) throws -> LoginStateController {
        let session = try LoginStateController(identifier: "session", loggedOut: controller("login"), loggedIn: controller("home"))
        session.transitionDuration = duration
        return session
    }

    /// The session shown in a window, logged in as `user` when given (that swap finished on
    /// the test's clock), with the log cleared.
    private func makeShownSession(duration: Duration = .zero, user: String? = nil) throws -> LoginStateController {
        let session = try makeSession(duration: duration)
        show(session)
        if let user {
            try session.logIn(user: user)
            clock.advance(by: duration)
        }
        _ = log.take()
        return session
    }

    // MARK: - Creation

    func testInit_thenShowsTheLoggedOutChildWithoutLoadingViews() async throws {
        let session = try makeSession()

        XCTAssertNil(session.session)
        XCTAssertTrue(session.shownController === session.loggedOut)
        XCTAssertTrue(session.currentChild === session.loggedOut)
        XCTAssertEqual(session.children.map(\.identifier), ["login"])
        XCTAssertFalse(session.isViewLoaded)
        XCTAssertFalse(session.loggedOut.isViewLoaded)
        XCTAssertEqual(log.take(), ["login.willMove(session)"])

        show(session)

        XCTAssertEqual(
            log.take(),
            [
                "login.viewDidLoad", "login.didMove(session)",
                "login.viewWillAppear(false)", "login.viewDidAppear(false)",
            ])
        XCTAssertFalse(session.loggedIn.isViewLoaded)
        XCTAssertEqual(session.loggedOut.view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
    }

    func testInit_whenChildrenShareAnIdentifier_thenThrowsDuplicateIdentifier() async {
        assertThrows(.duplicateIdentifier) {
            try LoginStateController(identifier: "session", loggedOut: Controller(identifier: "a"), loggedIn: Controller(identifier: "a"))
        }
    }

    func testInit_whenChildrenAreTheSameOrBadlyNamed_thenThrowsInvalidArgument() async {
        let child = Controller(identifier: "a")
        assertThrows(.invalidArgument) { try LoginStateController(identifier: "session", loggedOut: child, loggedIn: child) }
        assertThrows(.invalidArgument) {
            try LoginStateController(identifier: "session", loggedOut: Controller(identifier: "a"), loggedIn: Controller(identifier: "b/c"))
        }
        XCTAssertNil(child.parent)
    }

    // MARK: - Swaps

    func testLogIn_onScreenWithZeroDuration_thenFollowsTheSwapTimelineBeforeReturning() async throws {
        let session = try makeShownSession()

        try session.logIn(user: "alice")

        XCTAssertEqual(log.take(), log.swap(from: "login", to: "home", in: "session"))
        XCTAssertEqual(session.session?.user, "alice")
        XCTAssertTrue(session.shownController === session.loggedIn)
        XCTAssertEqual(session.children.map(\.identifier), ["home"])
        XCTAssertEqual(session.view.subviews.count, 1)
        XCTAssertEqual(session.loggedIn.view.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
    }

    func testLogIn_withManualClock_thenCompletesTheSwapWhenTheDurationHasPassed() async throws {
        let session = try makeShownSession(duration: .milliseconds(300))

        try session.logIn(user: "alice")

        XCTAssertEqual(log.take(), log.swapBeginning(from: "login", to: "home", in: "session", animated: true))
        XCTAssertEqual(session.session?.user, "alice")
        XCTAssertTrue(session.shownController === session.loggedIn)
        XCTAssertEqual(session.view.subviews.count, 2)

        clock.advance(by: .milliseconds(299))
        XCTAssertEqual(log.take(), [])

        clock.advance(by: .milliseconds(1))

        XCTAssertEqual(log.take(), log.swapEnding(from: "login", to: "home", in: "session", animated: true))
        XCTAssertEqual(session.children.map(\.identifier), ["home"])
        XCTAssertEqual(session.view.subviews.count, 1)
    }

    func testLogOut_withManualClock_thenSwapsBackWithTheSameTimeline() async throws {
        let session = try makeShownSession(duration: .milliseconds(300), user: "alice")

        XCTAssertTrue(session.logOut())

        XCTAssertNil(session.session)
        XCTAssertEqual(log.take(), log.swapBeginning(from: "home", to: "login", in: "session", animated: true, loadingView: false))
        clock.advance(by: .milliseconds(300))
        XCTAssertEqual(log.take(), log.swapEnding(from: "home", to: "login", in: "session", animated: true))
        XCTAssertTrue(session.shownController === session.loggedOut)
        XCTAssertEqual(session.children.map(\.identifier), ["login"])
    }

    func testLogOut_duringTheLogInSwap_thenSwapsBackOnceTheLogInSwapFinishes() async throws {
        let session = try makeShownSession(duration: .milliseconds(300))
        try session.logIn(user: "alice")
        _ = log.take()

        XCTAssertTrue(session.logOut())
        XCTAssertNil(session.session)
        XCTAssertEqual(log.take(), [])

        clock.advance(by: .milliseconds(300))
        XCTAssertEqual(
            log.take(),
            log.swapEnding(from: "login", to: "home", in: "session", animated: true)
                + log.swapBeginning(from: "home", to: "login", in: "session", animated: true, loadingView: false)
        )

        clock.advance(by: .milliseconds(300))
        XCTAssertEqual(log.take(), log.swapEnding(from: "home", to: "login", in: "session", animated: true))
        XCTAssertTrue(session.shownController === session.loggedOut)
        XCTAssertEqual(session.loggedOut.appearance, .appeared)
        XCTAssertEqual(session.loggedIn.appearance, .disappeared)
    }

    func testLogIn_beforeTheViewLoads_thenSwapsChildrenWithoutLoadingViews() async throws {
        let session = try makeSession()
        _ = log.take()

        try session.logIn(user: "alice")

        XCTAssertEqual(log.take(), ["login.willMove(nil)", "home.willMove(session)", "login.didMove(nil)"])
        XCTAssertFalse(session.isViewLoaded)
        XCTAssertFalse(session.loggedIn.isViewLoaded)
        XCTAssertEqual(session.children.map(\.identifier), ["home"])
    }

    // MARK: - Results and errors

    func testLogIn_whenTheSameUserIsLoggedIn_thenDoesNothing() async throws {
        let session = try makeShownSession(user: "alice")
        let since = session.session?.since

        try session.logIn(user: "alice")

        XCTAssertEqual(log.take(), [])
        XCTAssertEqual(session.session?.since, since)
    }

    func testLogIn_whenAnotherUserLoggedIn_andNotSwitching_thenThrows() async throws {
        let session = try makeShownSession(user: "alice")
        let before = session.session

        let error = assertThrows(.alreadyLoggedIn) { try session.logIn(user: "bob") }
        XCTAssertEqual(error?.description.contains("alice"), true)
        XCTAssertEqual(session.session, before)
        XCTAssertEqual(log.take(), [])
    }

    func testLogIn_whenAnotherUserLoggedIn_andSwitching_thenKeepsTheLoggedInChild() async throws {
        let session = try makeShownSession(user: "alice")

        try session.logIn(user: "bob", switching: true)

        XCTAssertEqual(session.session?.user, "bob")
        XCTAssertTrue(session.shownController === session.loggedIn)
        XCTAssertEqual(log.take(), [])
    }

    func testLogIn_whenTheUserIsInvalid_thenThrowsInvalidArgument() async throws {
        let session = try makeSession()
        // The model's one rule for user names: bounded, printable on one line, visible.
        for user in ["", "   ", "al\nice", "\u{7}", String(repeating: "a", count: 257), "\u{202E}admin", "ada\u{2028}root", "\u{200B}"] {
            assertThrows(.invalidArgument) { try session.logIn(user: user) }
        }
        XCTAssertNil(session.session)
        XCTAssertTrue(session.shownController === session.loggedOut)
        XCTAssertNoThrow(try session.logIn(user: String(repeating: "a", count: 256)))
    }

    func testLogIn_whenTheUserIsInvalid_thenTheErrorSaysWhy() async throws {
        let session = try makeSession()
        XCTAssertThrowsError(try session.logIn(user: "ada\u{1B}")) { error in
            XCTAssertEqual("\(error)", "the user name must not contain control characters")
        }
    }

    func testLogIn_recordsWhenTheSessionStarted_toTheSecond() async throws {
        let session = try makeSession()
        let before = Date().timeIntervalSince1970.rounded(.down)
        try session.logIn(user: "alice")
        let since = try XCTUnwrap(session.session?.since.timeIntervalSince1970)
        XCTAssertGreaterThanOrEqual(since, before)
        XCTAssertLessThanOrEqual(since, Date().timeIntervalSince1970)
        XCTAssertEqual(since, since.rounded(.down))
    }

    func testLogOut_whenLoggedOut_thenReturnsFalseAndChangesNothing() async throws {
        let session = try makeShownSession()

        XCTAssertFalse(session.logOut())
        XCTAssertEqual(log.take(), [])
        XCTAssertTrue(session.shownController === session.loggedOut)
    }

    func testLogOut_whenLoggedIn_thenReturnsTrue() async throws {
        let session = try makeSession()
        try session.logIn(user: "alice")

        XCTAssertTrue(session.logOut())
        XCTAssertNil(session.session)
        XCTAssertFalse(session.logOut())
    }

    // MARK: - Bus

    func testSessionNotifications_whileInAWindow_thenLogInAndOut() async throws {
        let session = try makeShownSession()
        let bus = session.bus

        bus.post(SessionDidLogIn(user: "alice"))
        XCTAssertEqual(session.session?.user, "alice")
        XCTAssertTrue(session.shownController === session.loggedIn)
        XCTAssertEqual(session.loggedIn.appearance, .appeared)

        bus.post(name: .sessionDidLogOut)
        XCTAssertNil(session.session)
        XCTAssertTrue(session.shownController === session.loggedOut)
        XCTAssertEqual(session.loggedOut.appearance, .appeared)
    }

    func testSessionDidLogOut_namingSomeoneElse_thenStillLogsOut() async throws {
        let session = try makeShownSession(user: "alice")

        session.bus.post(SessionDidLogOut(user: "bob"))

        XCTAssertNil(session.session)
    }

    func testSessionDidLogIn_forAnotherUser_thenSwitchesUsers() async throws {
        let session = try makeShownSession(user: "alice")

        session.bus.post(name: .sessionDidLogIn, userInfo: ["user": "bob"])

        XCTAssertEqual(session.session?.user, "bob")
    }

    func testSessionDidLogIn_withAnInvalidUser_thenWarnsAndChangesNothing() async throws {
        let session = try makeShownSession()

        session.bus.post(name: .sessionDidLogIn, userInfo: ["user": ""])

        XCTAssertNil(session.session)
        XCTAssertEqual(warnings.map(\.identifier), ["session"])
    }

    func testSessionNotifications_whenNotInAWindow_thenChangeNothing() async throws {
        let session = try makeSession()
        let bus = NotificationBus()
        let otherWindow = Window(size: Size(width: 100, height: 100), bus: bus)
        XCTAssertEqual(bus.observerCount, 0)

        bus.post(SessionDidLogIn(user: "alice"))
        XCTAssertNil(session.session)

        otherWindow.rootController = session
        XCTAssertEqual(bus.observerCount, 2)
        otherWindow.rootController = nil
        XCTAssertEqual(bus.observerCount, 0)

        bus.post(SessionDidLogIn(user: "alice"))
        XCTAssertNil(session.session)
    }

    func testLogInAndOut_throughTheAPI_thenPostNothing() async throws {
        let session = try makeShownSession()
        var posted: [NotificationName] = []
        let token = session.bus.addObserver(forName: nil) { posted.append($0.name) }

        try session.logIn(user: "alice")
        session.logOut()

        XCTAssertEqual(posted, [])
        token.cancel()
    }

    func testMovingToAnotherWindow_thenObservesTheNewWindowsBusOnly() async throws {
        let session = try makeSession()
        let first = Window(size: Size(width: 100, height: 100))
        let second = Window(size: Size(width: 100, height: 100))
        first.rootController = session

        second.rootController = session

        XCTAssertEqual(first.bus.observerCount, 0)
        XCTAssertEqual(second.bus.observerCount, 2)
        first.bus.post(SessionDidLogIn(user: "alice"))
        XCTAssertNil(session.session)
        second.bus.post(SessionDidLogIn(user: "alice"))
        XCTAssertEqual(session.session?.user, "alice")
    }

    func testTearingDownTheTree_thenNoObserversAreLeft() async throws {
        let bus = NotificationBus()
        let login = try KeyboardAwareController(identifier: "login", content: Controller(identifier: "login-form"))
        let session = try LoginStateController(identifier: "session", loggedOut: login, loggedIn: Controller(identifier: "home"))
        let window = show(session, bus: bus)
        XCTAssertEqual(bus.observerCount, 5)

        window.rootController = nil

        XCTAssertEqual(bus.observerCount, 0)
    }

    // MARK: - Restoration and snapshots

    func testRestoration_beforeTheTreeAppears_thenShowsTheLoggedInChildWithoutATransition() async throws {
        let saved = try makeSession()
        saved.restorationIdentifier = "session"
        try saved.logIn(user: "alice")
        let document = saved.encodeRestorableTree()
        XCTAssertEqual(document.controllers["session"]?["user"], "alice")
        let since = try XCTUnwrap(saved.session?.since)
        XCTAssertEqual(document.controllers["session"]?["since"], .number(since.timeIntervalSince1970))

        let data = try JSONEncoder().encode(document)
        let restoredDocument = try JSONDecoder().decode(RestorationDocument.self, from: data)
        let restored = try makeSession()
        restored.restorationIdentifier = "session"
        _ = log.take()

        try restored.decodeRestorableTree(restoredDocument)

        XCTAssertEqual(restored.session, Session(user: "alice", since: since))
        XCTAssertTrue(restored.shownController === restored.loggedIn)
        XCTAssertFalse(restored.isViewLoaded)
        XCTAssertFalse(restored.loggedIn.isViewLoaded)
        XCTAssertEqual(log.take(), ["login.willMove(nil)", "home.willMove(session)", "login.didMove(nil)"])

        show(restored)

        XCTAssertEqual(
            log.take(),
            [
                "home.viewDidLoad", "home.didMove(session)",
                "home.viewWillAppear(false)", "home.viewDidAppear(false)",
            ])
        XCTAssertFalse(restored.loggedOut.isViewLoaded)
    }

    func testRestoration_withTheViewLoadedOffScreen_thenSwapsAtOnceWithoutAppearance() async throws {
        let session = try makeSession(duration: .seconds(1))
        session.restorationIdentifier = "session"
        session.loadViewIfNeeded()
        _ = log.take()

        try session.decodeRestorableTree(RestorationDocument(controllers: ["session": ["user": "alice", "since": 0]]))

        XCTAssertEqual(
            log.take(),
            [
                "login.willMove(nil)", "home.willMove(session)", "home.viewDidLoad",
                "login.didMove(nil)", "home.didMove(session)",
            ])
        XCTAssertEqual(session.session, Session(user: "alice", since: Date(timeIntervalSince1970: 0)))
        XCTAssertTrue(session.loggedIn.view.superview === session.view)
        XCTAssertNil(session.loggedOut.view.superview)
    }

    func testRestoration_ofALoggedOutTree_thenLogsOut() async throws {
        let saved = try makeSession()
        saved.restorationIdentifier = "session"
        let document = saved.encodeRestorableTree()
        XCTAssertEqual(document.controllers["session"]?["user"], .null)
        let restored = try makeSession()
        restored.restorationIdentifier = "session"
        try restored.logIn(user: "alice")

        try restored.decodeRestorableTree(document)

        XCTAssertNil(restored.session)
        XCTAssertTrue(restored.shownController === restored.loggedOut)
    }

    func testRestoration_withAnInvalidUser_thenWarnsAndRestoresNoSession() async throws {
        let session = try makeSession()
        session.restorationIdentifier = "session"

        try session.decodeRestorableTree(RestorationDocument(controllers: ["session": ["user": ""]]))

        XCTAssertEqual(warnings.count, 1)
        XCTAssertNil(session.session)
        XCTAssertTrue(session.shownController === session.loggedOut)
    }

    func testSnapshot_reportsTheUserAndTheCurrentChild() async throws {
        let session = try makeShownSession()
        XCTAssertNil(session.snapshot().user)
        XCTAssertEqual(session.snapshot().current, "login")

        try session.logIn(user: "alice")

        let snapshot = session.snapshot()
        XCTAssertEqual(snapshot.user, "alice")
        XCTAssertEqual(snapshot.current, "home")
        // Both children are listed, the hidden one off screen, in a fixed order.
        XCTAssertEqual(snapshot.children.map(\.path), ["session/login", "session/home"])
        XCTAssertEqual(snapshot.children.map(\.onScreen), [false, true])
        XCTAssertEqual(session.deepestCurrent.path, "session/home")
    }
}
