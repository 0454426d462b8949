import AppStateCore
import StateContainers
import XCTest

/// `snapshot(reusing:)`: the same snapshot as `snapshot()`, sharing with the earlier one every
/// subtree that did not change, whatever the change (the daemon publishes every change so).
final class SnapshotReuseTests: ModelTestCase {
    /// The default tree, shown in a visible window of its size.
    private func showDefaultTree() throws -> (LoginStateController, Window) {
        let spec = try TreeFile.default.trees[0]
        let root = try XCTUnwrap(try TreeBuilder.makeRootController(for: spec) as? LoginStateController)
        let window = show(root, size: spec.window)
        return (root, window)
    }

    /// Whether two arrays are one buffer, as a copy of an array is until either changes.
    private static func sameStorage(_ a: [NodeSnapshot], _ b: [NodeSnapshot]) -> Bool {
        a.withUnsafeBufferPointer { mine in b.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }
    }

    func testSnapshotReusing_afterEachChangeOfALongSequence_thenEqualsAFreshSnapshot() async throws {
        let (session, window) = try showDefaultTree()
        let pages = { session.descendant(at: "home/pages") as? PaginatedController }
        let inbox = { session.descendant(at: "home/inbox") as? NavigationController }
        let menu = { session.descendant(at: "home") as? MenuController }
        let keyboard = Rect(x: 0, y: 980, width: 800, height: 300)
        let changes: [(String, () throws -> Void)] = [
            ("log in", { try session.logIn(user: "ada") }),
            ("page 2", { try pages()?.setPage(2, animated: false) }),
            ("push compose", { try inbox()?.push(identifier: "compose", animated: false) }),
            ("push message", { try inbox()?.push(identifier: "message", animated: false) }),
            ("pop", { _ = inbox()?.pop(animated: false) }),
            ("pop to root", { _ = inbox()?.popToRoot(animated: false) }),
            ("select dashboard", { try menu()?.select(identifier: "dashboard") }),
            ("show menu", { menu()?.showMenu() }),
            ("resize", { window.resize(to: Size(width: 800, height: 1280)) }),
            ("log out", { _ = session.logOut() }),
            ("keyboard shown", { window.bus.post(KeyboardWillShow(frameBegin: .zero, frameEnd: keyboard, duration: 0, curve: .easeInOut)) }),
            ("keyboard hidden", { window.bus.post(KeyboardWillHide(frameBegin: keyboard, frameEnd: .zero, duration: 0, curve: .easeInOut)) }),
            ("log in again", { try session.logIn(user: "grace") }),
            ("nothing", {}),
        ]
        var earlier = session.snapshot()
        for (name, change) in changes {
            try change()
            let reused = session.snapshot(reusing: earlier)
            XCTAssertEqual(reused, session.snapshotDescribedAfresh(), "after \(name)")
            let changes = reused.changes(since: earlier)
            let applied = earlier.applying(changes) { node, _ in node }
            XCTAssertTrue(changes.patches.isEmpty, "after \(name): patches only when asked for")
            XCTAssertEqual(applied, reused, "after \(name), the changes do not lead from one to the other")
            earlier = reused
        }
    }

    func testSnapshotReusing_whenOnePageTurns_thenSubtreesOutsideItAreTheEarlierOnes() async throws {
        let (session, _) = try showDefaultTree()
        try session.logIn(user: "ada")
        let before = session.snapshot()

        try (session.descendant(at: "home/pages") as? PaginatedController)?.setPage(1, animated: false)
        let after = session.snapshot(reusing: before)

        let inbox = try XCTUnwrap(after.node(at: "session/home/inbox"))
        let inboxBefore = try XCTUnwrap(before.node(at: "session/home/inbox"))
        XCTAssertTrue(Self.sameStorage(inbox.children, inboxBefore.children), "the inbox did not change, yet its children were built again")
        let pages = try XCTUnwrap(after.node(at: "session/home/pages"))
        let pagesBefore = try XCTUnwrap(before.node(at: "session/home/pages"))
        XCTAssertFalse(Self.sameStorage(pages.children, pagesBefore.children))
        XCTAssertEqual(after.changes(since: before).changed.map(\.path), ["session/home/pages"])
    }

    func testSnapshotReusing_whenNothingChanged_thenIsTheEarlierSnapshot() async throws {
        let (session, _) = try showDefaultTree()
        let before = session.snapshot()

        let after = session.snapshot(reusing: before)

        XCTAssertTrue(Self.sameStorage(after.children, before.children))
        XCTAssertTrue(after.changes(since: before).isEmpty)
    }

    func testSnapshotReusing_whenGivenAnotherControllersSnapshot_thenReusesNothingOfIt() async throws {
        let (session, _) = try showDefaultTree()
        let home = try XCTUnwrap(session.descendant(at: "home"))
        let other = session.snapshot()

        XCTAssertEqual(home.snapshot(reusing: other), home.snapshotDescribedAfresh())
    }
}
