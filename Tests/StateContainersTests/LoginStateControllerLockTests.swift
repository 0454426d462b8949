import AppStateCore
import Foundation
import StateContainers
import XCTest

/// The login container's locked state: locking keeps the session and swaps to the lock
/// screen with the same timeline as logging in and out; unlocking shows the logged-in child
/// again with its state intact; the lock is restorable.
final class LoginStateControllerLockTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .plain }

    private func makeSession(lockScreen: Bool = true, duration: Duration = .zero) throws -> LoginStateController {
        let session = try LoginStateController(
            identifier: "session",
            loggedOut: controller("login"),
            loggedIn: controller("home"),
            locked: lockScreen ? controller("locked") : nil
        )
        session.transitionDuration = duration
        return session
    }

    func testLock_withManualClock_thenSwapsToTheLockScreenWithTheSevenStepTimeline() async throws {
        let session = try makeSession(duration: .milliseconds(300))
        show(session)
        try session.logIn(user: "alice")
        clock.advance(by: .milliseconds(300))
        _ = log.take()

        XCTAssertTrue(try session.lock())

        XCTAssertTrue(session.isLocked)
        XCTAssertEqual(session.session?.user, "alice", "locking keeps the session")
        XCTAssertEqual(
            log.take(),
            [
                "home.willMove(nil)",
                "locked.willMove(session)",
                "locked.viewDidLoad",
                "home.viewWillDisappear(true)",
                "locked.viewWillAppear(true)",
            ])
        clock.advance(by: .milliseconds(300))
        XCTAssertEqual(
            log.take(),
            [
                "home.viewDidDisappear(true)",
                "locked.viewDidAppear(true)",
                "home.didMove(nil)",
                "locked.didMove(session)",
            ])
        XCTAssertEqual(session.children.map(\.identifier), ["locked"])
        XCTAssertEqual(session.snapshot().locked, true)
    }

    func testUnlock_whenLocked_thenTheLoggedInChildReturnsWithItsViewAndState() async throws {
        let session = try makeSession()
        show(session)
        try session.logIn(user: "alice")
        let home = session.loggedIn
        home.title = "Inbox, 3 unread"
        try session.lock()
        _ = log.take()

        XCTAssertTrue(try session.unlock())

        XCTAssertFalse(session.isLocked)
        XCTAssertTrue(session.shownController === home)
        XCTAssertEqual(home.title, "Inbox, 3 unread")
        XCTAssertEqual(
            log.take(),
            [
                "locked.willMove(nil)",
                "home.willMove(session)",
                "locked.viewWillDisappear(false)",
                "home.viewWillAppear(false)",
                "locked.viewDidDisappear(false)",
                "home.viewDidAppear(false)",
                "locked.didMove(nil)",
                "home.didMove(session)",
            ], "the view loaded before the lock is reused, not loaded again")
    }

    func testLock_whenNobodyIsLoggedInOrAlreadyLocked_thenChangesNothing() async throws {
        let session = try makeSession()
        show(session)
        _ = log.take()
        XCTAssertFalse(try session.lock())
        XCTAssertFalse(session.isLocked)
        XCTAssertFalse(try session.unlock())
        try session.logIn(user: "alice")
        XCTAssertTrue(try session.lock())
        _ = log.take()
        XCTAssertFalse(try session.lock())
        XCTAssertEqual(log.take(), [])
    }

    func testLock_withoutALockScreen_thenTheLoggedOutChildStandsIn() async throws {
        let session = try makeSession(lockScreen: false)
        show(session)
        try session.logIn(user: "alice")

        try session.lock()

        XCTAssertTrue(session.shownController === session.loggedOut)
        XCTAssertEqual(session.session?.user, "alice")
        XCTAssertEqual(session.configuredChildren.map(\.identifier), ["login", "home"])
    }

    func testLogOutAndSwitch_whenLocked_thenTheLockEnds() async throws {
        let session = try makeSession()
        show(session)
        try session.logIn(user: "alice")
        try session.lock()

        try session.logIn(user: "bob", switching: true)
        XCTAssertFalse(session.isLocked, "another user's session starts unlocked")
        XCTAssertTrue(session.shownController === session.loggedIn)

        try session.lock()
        XCTAssertTrue(session.logOut())
        XCTAssertFalse(session.isLocked)
        XCTAssertTrue(session.shownController === session.loggedOut)
    }

    func testRestoration_whenLocked_thenRestoresTheLockWithoutLoadingViews() async throws {
        let saved = try makeSession()
        saved.restorationIdentifier = "session"
        show(saved)
        try saved.logIn(user: "alice")
        try saved.lock()
        let document = saved.encodeRestorableTree()
        XCTAssertEqual(document.controllers["session"]?["locked"], true)

        let restored = try makeSession()
        restored.restorationIdentifier = "session"
        try restored.decodeRestorableTree(document)

        XCTAssertTrue(restored.isLocked)
        XCTAssertEqual(restored.session?.user, "alice")
        XCTAssertTrue(restored.shownController === restored.locked)
        XCTAssertFalse(restored.loggedIn.isViewLoaded)
        XCTAssertFalse(restored.locked?.isViewLoaded ?? true)
    }

    func testInit_whenTheLockScreenRepeatsAnIdentifierOrAChild_thenThrows() async {
        let login = Controller(identifier: "login")
        let home = Controller(identifier: "home")
        XCTAssertThrowsError(try LoginStateController(identifier: "s", loggedOut: login, loggedIn: home, locked: Controller(identifier: "home"))) {
            XCTAssertEqual($0 as? ContainmentError, .duplicateIdentifier)
        }
        XCTAssertThrowsError(try LoginStateController(identifier: "s", loggedOut: login, loggedIn: home, locked: login)) {
            XCTAssertEqual($0 as? ContainmentError, .invalidArgument)
        }
    }

    func testTreeFile_whenALoginContainerHasThreeChildren_thenTheThirdIsTheLockScreen() async throws {
        let file = try TreeFixtures.decode(
            TreeFixtures.file(
                root: #"""
                    {"type": "LoginStateController", "id": "session", "children": [
                      {"type": "Controller", "id": "login"}, {"type": "Controller", "id": "home"}, {"type": "Controller", "id": "locked"}]}
                    """#))
        XCTAssertNoThrow(try file.validate())
        let session = try XCTUnwrap(try TreeBuilder.makeRootController(for: file.trees[0]) as? LoginStateController)
        XCTAssertEqual(session.locked?.identifier, "locked")
        XCTAssertEqual(session.snapshot().children.map(\.path), ["session/login", "session/home", "session/locked"])
    }
}
