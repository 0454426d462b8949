import AppStateCore
import Foundation
import StateContainers
import XCTest

final class TreeFileDefaultTests: ModelTestCase {
    /// The embedded default tree, as `StateContainers.docc/TreeFiles.md` draws it: every path
    /// with its type.
    private let designPaths: [(path: String, type: String)] = [
        ("session", "LoginStateController"),
        ("session/login", "KeyboardAwareController"),
        ("session/login/login-form", "Controller"),
        ("session/home", "MenuController"),
        ("session/home/pages", "PaginatedController"),
        ("session/home/pages/overview", "Controller"),
        ("session/home/pages/activity", "ContentStateController"),
        ("session/home/pages/settings", "Controller"),
        ("session/home/inbox", "NavigationController"),
        ("session/home/inbox/messages", "Controller"),
        ("session/home/dashboard", "StackController"),
        ("session/home/dashboard/list", "Controller"),
        ("session/home/dashboard/map", "Controller"),
    ]

    /// The default tree built from the embedded file, its saved state restored when given,
    /// and shown in a visible window of the tree's size on a manual clock.
    private func showDefaultTree(restoring saved: RestorationDocument? = nil) throws -> LoginStateController {
        let spec = try TreeFile.default.trees[0]
        let root = try XCTUnwrap(try TreeBuilder.makeRootController(for: spec) as? LoginStateController)
        if let saved { try root.decodeRestorableTree(saved) }
        show(root, size: spec.window)
        return root
    }

    /// Logs in as ada, turns to the third page, pushes `compose` on the inbox and selects
    /// `item` in the menu: the state the restoration tests save.
    private func browse(_ session: LoginStateController, selecting item: String) throws {
        try session.logIn(user: "ada", switching: false)
        try (session.descendant(at: "home/pages") as? PaginatedController)?.setPage(2, animated: false)
        try (session.descendant(at: "home/inbox") as? NavigationController)?.push(identifier: "compose", animated: false)
        try (session.descendant(at: "home") as? MenuController)?.select(identifier: item)
    }

    func testDefault_whenDecoded_thenOneValidTreeNamedDefaultAt1280x800() async throws {
        let file = try TreeFile.default

        XCTAssertNoThrow(try file.validate())
        XCTAssertEqual(file.version, 1)
        XCTAssertEqual(file.trees.map(\.name), ["default"])
        XCTAssertEqual(file.trees[0].window, Size(width: 1280, height: 800))
    }

    func testDefault_whenSpecWalked_thenExactlyTheDesignPathsAndTypes() async throws {
        let root = try TreeFile.default.trees[0].root
        var found: [(path: String, type: String)] = []
        func walk(_ node: NodeSpec, _ parentPath: String?) {
            let path = parentPath.map { "\($0)/\(node.id)" } ?? node.id
            found.append((path, node.type))
            for child in node.children { walk(child, path) }
        }

        walk(root, nil)

        XCTAssertEqual(found.map { "\($0.path) \($0.type)" }, designPaths.map { "\($0.path) \($0.type)" })
        XCTAssertEqual(root.descendantSpec(at: ["home", "inbox"])?.nodes(NavigationController.Kind.destinations).map(\.id), ["message", "compose"])
    }

    func testDefault_whenBuilt_thenControllersHaveTheDesignPathsTypesAndRestorationPaths() async throws {
        let session = try showDefaultTree()
        // The whole configured tree is addressable, with its paths, whichever child of the
        // login container is shown.
        XCTAssertEqual(session.deepestCurrent.path, "session/login/login-form")
        assertControllers(under: session, are: designPaths)

        try session.logIn(user: "ada", switching: false)

        XCTAssertEqual(session.deepestCurrent.path, "session/home/pages/overview")
        assertControllers(under: session, are: designPaths)
    }

    func testDefault_whenStateSavedAndRestoredIntoANewTree_thenSameChildrenCurrent() async throws {
        let session = try showDefaultTree()
        try browse(session, selecting: "inbox")
        let saved = session.encodeRestorableTree()

        let restored = try showDefaultTree(restoring: saved)

        XCTAssertEqual(restored.session?.user, "ada")
        XCTAssertEqual((restored.descendant(at: "home/pages") as? PaginatedController)?.currentIndex, 2)
        XCTAssertEqual(restored.deepestCurrent.path, "session/home/inbox/compose")
    }

    func testDefault_whenSavedWhileLoggedOut_thenTheHiddenChildKeepsItsStateForTheNextLogin() async throws {
        let session = try showDefaultTree()
        try browse(session, selecting: "dashboard")
        session.logOut()
        let saved = session.encodeRestorableTree()
        XCTAssertEqual(saved.controllers["session/home/pages"]?["index"], 2)

        let restored = try showDefaultTree(restoring: saved)
        XCTAssertNil(restored.session)
        XCTAssertEqual(restored.deepestCurrent.path, "session/login/login-form")
        XCTAssertFalse(restored.loggedIn.isViewLoaded, "restoring a hidden child loads no view")

        try restored.logIn(user: "ada", switching: false)
        XCTAssertEqual(restored.deepestCurrent.path, "session/home/dashboard")
        XCTAssertEqual((restored.descendant(at: "home/pages") as? PaginatedController)?.currentIndex, 2)
        XCTAssertEqual((restored.descendant(at: "home/inbox") as? NavigationController)?.top.identifier, "compose")
    }
}

extension TreeFileDefaultTests {
    /// Each path names a controller of the given type under `root`, whose restoration path is
    /// the same as its path (restoration identifiers default to identifiers).
    private func assertControllers(under root: Controller, are paths: some Sequence<(path: String, type: String)>, line: UInt = #line) {
        for (path, type) in paths {
            let controller = root.descendant(atPath: path)
            XCTAssertEqual(controller.map { String(describing: Swift.type(of: $0)) }, type, path, line: line)
            XCTAssertEqual(controller?.path, path, line: line)
            XCTAssertEqual(controller?.restorationPath, path, line: line)
        }
    }
}

extension NodeSpec {
    fileprivate func descendantSpec(at identifiers: [String]) -> NodeSpec? {
        guard let first = identifiers.first else { return self }
        return children.first { $0.id == first }?.descendantSpec(at: Array(identifiers.dropFirst()))
    }
}
