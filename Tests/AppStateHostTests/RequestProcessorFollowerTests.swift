import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// A tree whose session follows logind takes session changes from the follower only, and
/// the follower's changes travel the clients' path: durable, then published to watchers.
final class RequestProcessorFollowerTests: AppStateTestCase {
    private func connection() -> ConnectionContext {
        ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())
    }

    private func call(_ method: AppStateMethod, _ parameters: [String: JSONValue] = [:]) -> VarlinkCall {
        VarlinkCall(method: method.rawValue, parameters: parameters)
    }

    @MainActor func testProcess_whenATreeFollowsLogind_thenClientsSessionCallsAreRefusedAndTheFollowersAreMade() async throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path)
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: store, sessionOwners: ["default": "seat0"])
        let refused = VarlinkError.sessionOwnedByLogind(tree: "default", seat: "seat0").name

        let replies = await processor.process(
            [
                call(.login, ["user": "mallory"]), call(.logout), call(.lock, ["tree": "default"]), call(.unlock, ["tree": .null]),
                call(.post, ["name": "session.didLogIn", "userInfo": ["user": "mallory"]]), call(.post, ["name": "session.didLogOut"]),
                call(.setPage, ["index": 1, "path": "session/home/pages"]), call(.post, ["name": "app.refresh"]),
            ], on: connection())
        XCTAssertEqual(
            replies.map { $0?.error }, [refused, refused, refused, refused, refused, refused, nil, nil],
            "other methods and notifications are the clients' still")
        XCTAssertEqual(replies.first??.parameters, ["tree": "default", "seat": "seat0"])
        // A tree of the wrong type is left to decoding to refuse.
        let wrongType = await processor.process([call(.login, ["user": "ada", "tree": 7])], on: connection())
        XCTAssertEqual(wrongType.first??.error, "org.varlink.service.InvalidParameter")

        // What the logind follower sends when logind says ada's session is locked.
        let followed = await processor.processFollowed([
            VarlinkCall(method: Login.name, parameters: ["tree": "default", "user": "ada", "switch": true]),
            VarlinkCall(method: Lock.name, parameters: ["tree": "default"]),
        ])
        XCTAssertEqual(followed.map { $0?.error }, [nil, nil])
        let login = try XCTUnwrap(host.trees.first?.root as? LoginStateController)
        XCTAssertEqual(login.session?.user, "ada")
        XCTAssertTrue(login.isLocked)
        let stats = await processor.process([call(.getStats)], on: connection())
        XCTAssertEqual(stats.first??.parameters["requests"], 9, "the clients' nine calls before it; the follower's are not counted")
        let saved = try StateDocument.decode(try XCTUnwrap(try store.load()), path: store.path)
        XCTAssertEqual(saved.trees["default"]?.controllers["session"]?["user"], "ada", "the follower's change is durable")
    }

    @MainActor func testProcess_whenNoTreeFollowsLogind_thenClientsChangeTheSession() async throws {
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil)
        let replies = await processor.process([call(.login, ["user": "ada"]), call(.lock)], on: connection())
        XCTAssertEqual(replies.map { $0?.error }, [nil, nil])
    }

    @MainActor func testProcess_whenATreeFollowsAnOutput_thenClientsResizeIsRefusedAndTheFollowersResizeGoesDown() async throws {
        let host = try TreeHost(
            file: HostedTreeFile(
                TreeFile(trees: [
                    TreeSpec(name: "main", root: NodeSpec(kind: Controller.Kind.self, id: "a")),
                    TreeSpec(name: "side", window: Size(width: 640, height: 480), root: NodeSpec(kind: Controller.Kind.self, id: "b")),
                ])), clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil)
        processor.follow(FollowedRoutes(outputs: ["main": .first, "side": .named("HDMI-A-1")]))
        let replies = await processor.process(
            [
                call(.resize, ["width": 800, "height": 600]), call(.resize, ["tree": "side", "width": 800, "height": 600]),
                call(.showKeyboard, ["tree": "side", "height": 100]),
            ], on: connection())
        XCTAssertEqual(
            replies.map { $0?.error }, [VarlinkError.windowOwnedByOutput(tree: "main", output: nil).name, "io.appstate.WindowOwnedByOutput", nil])
        XCTAssertEqual(replies[1]?.parameters, ["tree": "side", "output": "HDMI-A-1"])
        let followed = await processor.processFollowed([
            VarlinkCall(method: Resize.name, parameters: ["tree": "side", "width": 1080, "height": 1920])
        ])
        XCTAssertEqual(followed.map { $0?.error }, [nil])
        XCTAssertEqual(host.trees[1].window.size, Size(width: 1080, height: 1920))
        XCTAssertEqual(processor.followedTrees[1].declaredSize, Size(width: 640, height: 480), "the tree file's size, for an unplugged output")
        // Following nothing any more (a reload): the window is the clients' again.
        processor.follow(FollowedRoutes())
        let after = await processor.process([call(.resize, ["tree": "side", "width": 800, "height": 600])], on: connection())
        XCTAssertEqual(after.map { $0?.error }, [nil])
    }
}
