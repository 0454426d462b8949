import AppStateCore
import AppStateIPC
import ServicePorts
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// `GetCurrent` is answered from published snapshots, off the main actor: it must answer
/// exactly what the live controllers would, for every node and every way of naming one.
final class TreeSnapshotsTests: AppStateTestCase {
    @MainActor func testCurrent_whenAskedForEveryNode_thenAnswersWhatTheLiveTreeDoes() async throws {
        let host = try TreeHost(file: .default)
        host.makeVisible()
        try assertSnapshotsMatchLiveTree(host)
        _ = try host.logIn(Login.Parameters(user: "ada"))
        host.publish()
        try assertSnapshotsMatchLiveTree(host)
        _ = try host.setPage(SetPage.Parameters(target: .index(1)))
        host.publish()
        try assertSnapshotsMatchLiveTree(host)
    }

    @MainActor func testCurrent_whenThePathIsNotCanonicalOrUnknown_thenNoSuchNode() async throws {
        let host = try TreeHost(file: .default)
        host.makeVisible()
        for path in ["", "/session", "session/", "session//login", "sessio", "session/nope", "login"] {
            XCTAssertThrowsError(try host.published.snapshots.current(PathParameters(path: path))) { error in
                XCTAssertEqual((error as? VarlinkError)?.name, "io.appstate.NoSuchNode", path)
            }
        }
        XCTAssertThrowsError(try host.published.snapshots.current(PathParameters(tree: "nope"))) { error in
            XCTAssertEqual((error as? VarlinkError)?.name, "io.appstate.NoSuchTree")
        }
    }

    /// Visits a controller and every controller it owns, hidden ones included, parents first.
    @MainActor private func forEachConfigured(_ controller: Controller, _ body: (Controller) -> Void) {
        body(controller)
        for child in controller.configuredChildren { forEachConfigured(child, body) }
    }

    /// Compares the snapshots' answer for the whole tree and for every node with the
    /// controllers' own current children.
    @MainActor private func assertSnapshotsMatchLiveTree(_ host: TreeHost, file: StaticString = #filePath, line: UInt = #line) throws {
        let tree = try host.tree(named: nil)
        let snapshots = host.published.snapshots
        let deepest = try snapshots.current(PathParameters())
        XCTAssertEqual(deepest.path, tree.root.deepestCurrent.path, file: file, line: line)
        XCTAssertEqual(deepest.node, tree.root.deepestCurrent.snapshot(), file: file, line: line)
        var checked: [String] = []
        forEachConfigured(tree.root) { controller in
            checked.append(controller.path)
            let answer = Result { () throws(VarlinkError) in try snapshots.current(PathParameters(path: controller.path)) }
            switch (answer, controller.currentChild) {
            case (.success(let reply), let current?):
                XCTAssertEqual(reply.path, current.path, file: file, line: line)
                XCTAssertEqual(reply.node, current.snapshot(), file: file, line: line)
            case (.failure(let error), nil):
                XCTAssertEqual(error.name, "io.appstate.WrongContainerType", controller.path, file: file, line: line)
                XCTAssertEqual(error.parameters["actual"], .string(String(describing: type(of: controller))), file: file, line: line)
            case (.success(let reply), nil):
                XCTFail("\(controller.path) has no current child, the snapshots say \(reply.path)", file: file, line: line)
            case (.failure(let error), let current?):
                XCTFail("\(controller.path) shows \(current.path), the snapshots say \(error)", file: file, line: line)
            }
        }
        XCTAssertEqual(checked, paths(in: try snapshots.root(named: nil)), file: file, line: line)
    }

    private func paths(in node: NodeSnapshot) -> [String] {
        [node.path] + node.children.flatMap(paths(in:))
    }
}
