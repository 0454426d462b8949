import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// The Varlink protocol end to end against the real daemon: service interface, methods,
/// declared errors, pipelining, oneway, streams and bad input.
final class DaemonProtocolTests: AppStateTestCase {
    private var daemon: DaemonProcess!
    private var client: VarlinkClient!

    override func setUpWithError() throws {
        daemon = try DaemonProcess()
        client = try VarlinkClient(path: daemon.socketPath)
    }

    override func tearDown() {
        client = nil
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
        daemon = nil
    }

    private func assertError(
        _ name: String, _ method: String, _ parameters: [String: JSONValue] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try client.call(method: method, parameters: parameters), file: file, line: line) { error in
            XCTAssertEqual((error as? VarlinkError)?.name, name, "\(error)", file: file, line: line)
        }
    }

    func testGetInterfaceDescription_whenAskedForIoAppstate_thenReturnsTheInterfaceFile() throws {
        let reply = try client.call(method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": "io.appstate"])
        XCTAssertEqual(reply["description"]?.stringValue, AppStateInterface.description)
        let info = try client.call(method: "org.varlink.service.GetInfo")
        XCTAssertEqual(info["interfaces"], ["org.varlink.service", "io.appstate"])
        assertError("org.varlink.service.InterfaceNotFound", "org.varlink.service.GetInterfaceDescription", ["interface": "com.example.nope"])
    }

    func testGetCurrent_whenFreshDefaultTree_thenLoginScreenIsCurrent() throws {
        let deepest = try client.call(method: "io.appstate.GetCurrent")
        XCTAssertEqual(deepest["path"], "session/login/login-form")
        let session = try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session"])
        XCTAssertEqual(session["path"], "session/login")
        XCTAssertEqual(session["node"]?["onScreen"], true)
        XCTAssertEqual(session["node"]?["appearance"], "appeared")
    }

    func testLogin_whenLoggedOut_thenHomeBecomesCurrentAndLogoutReturns() throws {
        let login = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        XCTAssertEqual(login["path"], "session/home")
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/overview")
        assertError("io.appstate.AlreadyLoggedIn", "io.appstate.Login", ["user": "bob"])
        XCTAssertEqual(try client.call(method: "io.appstate.Login", parameters: ["user": "bob", "switch": true])["path"], "session/home")
        let logout = try client.call(method: "io.appstate.Logout")
        XCTAssertEqual(logout["changed"], true)
        XCTAssertEqual(logout["path"], "session/login")
        XCTAssertEqual(try client.call(method: "io.appstate.Logout")["changed"], false)
    }

    /// Every node the tree file declares is visible and addressable while logged out; a change
    /// named by its path applies to the remembered state, is kept across a crash, and is
    /// what the next login shows. A call without a path acts on what is shown.
    func testHiddenChild_whenLoggedOut_thenVisibleAddressableAndChangeableByPath() throws {
        let root = try XCTUnwrap(try client.call(method: "io.appstate.GetTree")["root"])
        XCTAssertEqual(root["children"]?.arrayValue?.map { $0["identifier"] }, ["login", "home"])
        let home = try XCTUnwrap(root["children"]?.arrayValue?.last)
        XCTAssertEqual(home["onScreen"], false)
        XCTAssertEqual(
            home["children"]?.arrayValue?.map { $0["path"] },
            ["session/home/pages", "session/home/inbox", "session/home/dashboard"])
        XCTAssertEqual(
            try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"],
            "session/home/pages/overview")

        XCTAssertEqual(
            try client.call(method: "io.appstate.SetPage", parameters: ["path": "session/home/pages", "id": "settings"]),
            ["index": 2, "path": "session/home/pages/settings"])
        XCTAssertEqual(
            try client.call(method: "io.appstate.Push", parameters: ["path": "session/home/inbox", "id": "message"])["path"],
            "session/home/inbox/message")
        assertError("io.appstate.NoSuchNode", "io.appstate.SetPage", ["index": 0])
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")

        daemon.kill9()
        try daemon.restart()
        client = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(
            try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"],
            "session/home/pages/settings")
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/settings")
        _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "inbox"])
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/inbox/message")
    }

    func testLockAndUnlock_whenLoggedIn_thenTheLockScreenShowsAndTheSessionKeepsItsState() throws {
        XCTAssertEqual(try client.call(method: "io.appstate.Lock"), ["changed": false, "path": "session/login"], "nobody to lock")
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["id": "settings"])
        // The default tree has no lock screen: the logged-out child stands in for it.
        XCTAssertEqual(try client.call(method: "io.appstate.Lock"), ["changed": true, "path": "session/login"])
        XCTAssertEqual(try client.call(method: "io.appstate.Lock")["changed"], false)
        let session = try client.call(method: "io.appstate.GetTree")["root"]
        XCTAssertEqual(session?["user"], "ada")
        XCTAssertEqual(session?["locked"], true)
        daemon.kill9()
        try daemon.restart()
        client = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try client.call(method: "io.appstate.GetTree")["root"]?["locked"], true, "the lock is kept across a crash")
        XCTAssertEqual(try client.call(method: "io.appstate.Unlock"), ["changed": true, "path": "session/home"])
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/settings")
        XCTAssertEqual(try client.call(method: "io.appstate.Unlock")["changed"], false)
        _ = try client.call(method: "io.appstate.Lock")
        XCTAssertEqual(try client.call(method: "io.appstate.Logout")["path"], "session/login")
        XCTAssertEqual(try client.call(method: "io.appstate.GetTree")["root"]?["locked"], false, "logging out ends the lock")
    }

    func testSetPage_whenIndexIdAndStep_thenMovesAndOutOfRangeChangesNothing() throws {
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        XCTAssertEqual(
            try client.call(method: "io.appstate.SetPage", parameters: ["step": 1]),
            ["index": 1, "path": "session/home/pages/activity"])
        XCTAssertEqual(try client.call(method: "io.appstate.SetPage", parameters: ["id": "settings"])["index"], 2)
        assertError("io.appstate.OutOfRange", "io.appstate.SetPage", ["index": 42])
        assertError("io.appstate.OutOfRange", "io.appstate.SetPage", ["step": 1])
        assertError("io.appstate.NoSuchChild", "io.appstate.SetPage", ["id": "nope"])
        assertError("io.appstate.WrongContainerType", "io.appstate.SetPage", ["path": "session/home", "index": 0])
        assertError("io.appstate.NoSuchNode", "io.appstate.SetPage", ["path": "session/nope", "index": 0])
        XCTAssertEqual(
            try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"],
            "session/home/pages/settings")
    }

    func testMenuAndNavigation_whenSelectingAndPushing_thenCurrentFollows() throws {
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        XCTAssertEqual(try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "inbox"])["path"], "session/home/inbox")
        let pushed = try client.call(method: "io.appstate.Push", parameters: ["id": "message"])
        XCTAssertEqual(pushed["path"], "session/home/inbox/message")
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/inbox/message")
        XCTAssertEqual(try client.call(method: "io.appstate.Pop")["path"], "session/home/inbox/messages")
        assertError("io.appstate.InvalidTransition", "io.appstate.Pop")
        assertError("io.appstate.NoSuchChild", "io.appstate.SelectMenuItem", ["id": "nope"])
    }

    func testShowKeyboard_whenLoginScreenShown_thenInsetFollowsKeyboard() throws {
        _ = try client.call(method: "io.appstate.ShowKeyboard", parameters: ["height": 300])
        let form = try client.call(method: "io.appstate.GetCurrent")["node"]
        XCTAssertEqual(form?["contentInset"]?["bottom"], 300)
        let tree = try client.call(method: "io.appstate.GetTree")["root"]
        XCTAssertEqual(tree?["children"]?.arrayValue?.first?["keyboardOverlap"], 300)
        _ = try client.call(method: "io.appstate.HideKeyboard")
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["node"]?["contentInset"]?["bottom"], 0)
        assertError("io.appstate.InvalidValue", "io.appstate.ShowKeyboard", ["height": -5])
    }

    func testResize_whenPortrait_thenFramesFollowAndAbsurdSizesAreRefused() throws {
        _ = try client.call(method: "io.appstate.Resize", parameters: ["width": 800, "height": 1280])
        let root = try client.call(method: "io.appstate.GetTree")["root"]
        XCTAssertEqual(root?["frame"], ["x": 0, "y": 0, "width": 800, "height": 1280])
        assertError("io.appstate.InvalidValue", "io.appstate.Resize", ["width": -1, "height": 10])
        assertError("io.appstate.InvalidValue", "io.appstate.Resize", ["width": 1e12, "height": 10])
    }

    func testCall_whenParametersUndeclaredOrMistyped_thenInvalidParameterAndNothingChanges() throws {
        assertError("org.varlink.service.InvalidParameter", "io.appstate.Login", ["user": "ada", "admin": true])
        assertError("org.varlink.service.InvalidParameter", "io.appstate.Login", ["user": 7])
        assertError("org.varlink.service.InvalidParameter", "io.appstate.SetPage", ["index": 1.5])
        assertError("org.varlink.service.MethodNotFound", "io.appstate.Explode")
        assertError("org.varlink.service.InterfaceNotFound", "com.example.Nope")
        assertError("io.appstate.NoSuchTree", "io.appstate.GetTree", ["tree": "nope"])
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
    }

    func testPipelining_whenThreeCallsInOneWrite_thenRepliesComeInOrder() throws {
        let raw = try RawConnection(path: daemon.socketPath)
        raw.send(
            Array(#"{"method":"io.appstate.Login","parameters":{"user":"ada"}}"#.utf8) + [0]
                + Array(#"{"method":"io.appstate.GetCurrent","parameters":{"path":"session"}}"#.utf8) + [0]
                + Array(#"{"method":"io.appstate.Logout"}"#.utf8) + [0])
        let (frames, _) = raw.receive(frames: 3)
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual((frames[safe: 0]?["parameters"] as? [String: Any])?["path"] as? String, "session/home")
        XCTAssertEqual((frames[safe: 1]?["parameters"] as? [String: Any])?["path"] as? String, "session/home")
        XCTAssertEqual((frames[safe: 2]?["parameters"] as? [String: Any])?["changed"] as? Bool, true)
    }

    func testOneway_whenCallIsOneway_thenNoReplyButTheChangeHappens() throws {
        let raw = try RawConnection(path: daemon.socketPath)
        raw.send(frame: #"{"method":"io.appstate.Login","parameters":{"user":"ada"},"oneway":true}"#)
        raw.send(frame: #"{"method":"io.appstate.GetCurrent","parameters":{"path":"session"}}"#)
        let (frames, _) = raw.receive(frames: 1)
        XCTAssertEqual((frames.first?["parameters"] as? [String: Any])?["path"] as? String, "session/home")
        XCTAssertTrue(raw.receive(frames: 1, timeout: 0.3).frames.isEmpty)
    }

    func testMalformedFrame_whenNotJSON_thenOnlyThatConnectionCloses() throws {
        let raw = try RawConnection(path: daemon.socketPath)
        raw.send(frame: "{not json")
        XCTAssertTrue(raw.isClosedByPeer())
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
    }

    func testOversizedFrame_whenLargerThanLimit_thenMessageTooLargeAndClosed() throws {
        daemon.stop()
        daemon = try DaemonProcess(arguments: ["--max-message-size", "1024"])
        client = try VarlinkClient(path: daemon.socketPath)
        let raw = try RawConnection(path: daemon.socketPath)
        raw.send(
            frame: #"{"method":"io.appstate.Post","parameters":{"name":"x","userInfo":{"pad":""# + String(repeating: "a", count: 4096) + #""}}}"#)
        let (frames, closed) = raw.receive(frames: 2)
        XCTAssertEqual(frames.first?["error"] as? String, "io.appstate.MessageTooLarge")
        XCTAssertTrue(closed || raw.isClosedByPeer())
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
    }

    func testWatch_whenAnotherClientLogsIn_thenSnapshotFirstThenTheEvent() throws {
        let watcher = try VarlinkClient(path: daemon.socketPath)
        var stream = try watcher.stream(method: "io.appstate.Watch")
        let first = try XCTUnwrap(stream.next())
        XCTAssertNil(first["event"])
        XCTAssertEqual(first["root"]?["current"], "login")
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        let change = try XCTUnwrap(stream.next())
        XCTAssertEqual(change["event"]?["name"], "Login")
        XCTAssertEqual(change["event"]?["current"], "session/home/pages/overview")
        XCTAssertNil(change["root"])
        XCTAssertEqual(change["patches"]?["session"]?["current"], "home")
        XCTAssertEqual(change["patches"]?["session"]?["user"], "ada")
        XCTAssertEqual(change["patches"]?["session/home"]?["onScreen"], true)
        XCTAssertNil(change["changed"], "no list of children changed")
        XCTAssertNil(change["removed"])
    }

    func testWatch_whenSubtreesAndAnotherClientLogsIn_thenTheLoginContainersSubtreeWhole() throws {
        let watcher = try VarlinkClient(path: daemon.socketPath)
        var stream = try watcher.stream(method: "io.appstate.Watch", parameters: ["subtrees": true])
        XCTAssertEqual(try XCTUnwrap(stream.next())["root"]?["current"], "login")
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        let change = try XCTUnwrap(stream.next())
        XCTAssertEqual(change["event"]?["name"], "Login")
        XCTAssertNil(change["patches"])
        XCTAssertEqual(change["changed"]?[0]?["path"], "session", "the login container and all below it changed")
        XCTAssertEqual(change["changed"]?[0]?["current"], "home")
        XCTAssertEqual(change["changed"]?[0]?["user"], "ada")
        XCTAssertEqual(change["removed"], [])
    }

    func testWatch_whenCallsFollowItInTheSameWrite_thenTheyAreNotActedOnAndTheConnectionCloses() throws {
        let raw = try RawConnection(path: daemon.socketPath)
        raw.send(
            Array(#"{"method":"io.appstate.GetCurrent"}"#.utf8) + [0]
                + Array(#"{"method":"io.appstate.Watch","more":true}"#.utf8) + [0]
                + Array(#"{"method":"io.appstate.Login","parameters":{"user":"ada"}}"#.utf8) + [0]
                + Array(#"{"method":"io.appstate.GetTree"}"#.utf8) + [0])
        let (frames, closed) = raw.receive(frames: 3)
        XCTAssertEqual(frames.count, 2, "the read before the Watch, then the Watch's snapshot: \(frames)")
        XCTAssertEqual((frames[safe: 0]?["parameters"] as? [String: Any])?["path"] as? String, "session/login/login-form")
        XCTAssertEqual(frames[safe: 1]?["continues"] as? Bool, true)
        XCTAssertTrue(closed || raw.isClosedByPeer(), "the calls behind the stream close the connection")
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form", "the Login was not acted on")
    }

    func testWatch_whenACallFollowsInALaterWrite_thenTheConnectionCloses() throws {
        let raw = try RawConnection(path: daemon.socketPath)
        raw.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertEqual(raw.receive(frames: 1).frames.first?["continues"] as? Bool, true)
        raw.send(frame: #"{"method":"io.appstate.Logout"}"#)
        XCTAssertTrue(raw.isClosedByPeer())
    }

    func testWatch_whenCalledWithoutMore_thenExpectedMore() {
        assertError("org.varlink.service.ExpectedMore", "io.appstate.Watch")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
