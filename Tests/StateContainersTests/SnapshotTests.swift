import AppStateCore
import Foundation
import StateContainers
import XCTest

/// A container that shows one child at a time, to exercise `current` in snapshots.
@MainActor private final class OneAtATime: LoggingController {
    var shown: Controller?
    override var currentChild: Controller? { shown }
}

/// `snapshot()`, paths and lookups (the section "Paths and snapshots" of
/// `Sources/StateContainers/StateContainers.docc/StateContainers.md`).
final class SnapshotTests: ModelTestCase {
    func testSnapshot_thenDescribesEveryNodeWithPathsFramesAndAppearance() async throws {
        let root = OneAtATime("session", log: log, title: "Session")
        let home = controller("home", title: "Home")
        let login = controller("login")
        try root.embed(home)
        try root.addChild(login)
        root.shown = home
        let window = visibleWindow(root: root, size: Size(width: 1280, height: 800))
        home.view.frame = Rect(x: 10, y: 20, width: 300, height: 200)
        home.view.contentInset = Insets(top: 0, left: 0, bottom: 50, right: 0)
        home.view.contentOffset = Point(x: 0, y: 30)

        let snapshot = root.snapshot()

        XCTAssertEqual(snapshot.path, "session")
        XCTAssertTrue(snapshot.type.hasSuffix("OneAtATime"), snapshot.type)
        XCTAssertEqual(snapshot.identifier, "session")
        XCTAssertEqual(snapshot.title, "Session")
        XCTAssertEqual(snapshot.appearance, .appeared)
        XCTAssertEqual(snapshot.frame, Rect(x: 0, y: 0, width: 1280, height: 800))
        XCTAssertTrue(snapshot.onScreen)
        XCTAssertEqual(snapshot.current, "home")
        XCTAssertEqual(snapshot.children.map(\.path), ["session/home", "session/login"])

        let homeNode = try XCTUnwrap(snapshot.node(at: "session/home"))
        XCTAssertEqual(homeNode.type, "LoggingController")
        XCTAssertEqual(homeNode.title, "Home")
        XCTAssertEqual(homeNode.appearance, .appeared)
        XCTAssertEqual(homeNode.frame, Rect(x: 10, y: 20, width: 300, height: 200), "the frame in window coordinates, whatever the scroll position")
        XCTAssertEqual(homeNode.contentInset, Insets(top: 0, left: 0, bottom: 50, right: 0))
        XCTAssertNil(homeNode.current)
        XCTAssertTrue(homeNode.onScreen)

        let loginNode = try XCTUnwrap(snapshot.node(at: "session/login"))
        XCTAssertEqual(loginNode.appearance, .disappeared)
        XCTAssertEqual(loginNode.frame, .zero)
        XCTAssertFalse(loginNode.onScreen)
        withExtendedLifetime(window) {}
    }

    func testSnapshot_whenViewsAreNotLoaded_thenDoesNotLoadThem() async throws {
        let root = controller("root")
        let child = controller("child")
        try root.addChild(child)
        log.removeAll()

        let snapshot = root.snapshot()

        XCTAssertFalse(root.isViewLoaded)
        XCTAssertFalse(child.isViewLoaded)
        XCTAssertEqual(log.entries, [])
        XCTAssertEqual(snapshot.frame, .zero)
        XCTAssertEqual(snapshot.children.first?.frame, .zero)
    }

    func testSnapshot_ofASubtree_thenPathsStartAtTheTreeRoot() async throws {
        let root = controller("session")
        let home = controller("home")
        let pages = controller("pages")
        try root.addChild(home)
        try home.addChild(pages)

        let snapshot = home.snapshot()

        XCTAssertEqual(snapshot.path, "session/home")
        XCTAssertEqual(snapshot.children.map(\.path), ["session/home/pages"])
        XCTAssertEqual(pages.path, "session/home/pages")
        XCTAssertNotNil(snapshot.node(at: "session/home/pages"))
        XCTAssertNil(snapshot.node(at: "session/homeX/pages"))
        XCTAssertNil(snapshot.node(at: "session"))
    }

    func testSnapshot_roundTripsThroughJSON() async throws {
        let root = OneAtATime("root", log: log)
        let child = controller("child", title: "Child")
        try root.embed(child)
        root.shown = child
        let window = visibleWindow(root: root)

        let snapshot = root.snapshot()
        let decoded = try JSONDecoder().decode(NodeSnapshot.self, from: JSONEncoder().encode(snapshot))

        XCTAssertEqual(decoded, snapshot)
        withExtendedLifetime(window) {}
    }

    func testDescendantAndDeepestCurrent_thenFollowIdentifiersAndCurrentChildren() async throws {
        let root = OneAtATime("session", log: log)
        let home = OneAtATime("home", log: log)
        let pages = controller("pages")
        try root.addChild(home)
        try home.addChild(pages)

        XCTAssertTrue(root.descendant(at: "home/pages") === pages)
        XCTAssertTrue(root.descendant(at: "") === root)
        XCTAssertNil(root.descendant(at: "home/nope"))
        XCTAssertTrue(root.deepestCurrent === root)

        root.shown = home
        home.shown = pages
        XCTAssertTrue(root.deepestCurrent === pages)
        XCTAssertEqual(root.snapshot().node(at: "session/home")?.current, "pages")
    }
}
