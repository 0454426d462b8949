import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// `appstated --follow-output` against real compositors started headless: sway 1.7, whose
/// outputs `swaymsg` changes, and cage, the kiosk compositor. The compositors are killed and
/// started again, and two outputs drive two trees.
final class FollowOutputTests: AppStateTestCase {
    /// A compositor, then the daemon following it through `WAYLAND_DISPLAY`.
    private func start(
        _ kind: HeadlessCompositor.Kind = .sway, arguments: [String] = ["--follow-output"],
        beforeDaemon: (HeadlessCompositor) throws -> Void = { _ in },
        beforeBuses: (FollowedDaemon.Buses) throws -> Void = { _ in }
    ) throws -> (FollowedDaemon, HeadlessCompositor) {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        let compositor = try HeadlessCompositor(kind, in: directory)
        addTeardownBlock { compositor.kill() }
        try beforeDaemon(compositor)
        let daemon = try FollowedDaemon(
            arguments: arguments, environment: ["WAYLAND_DISPLAY": try compositor.socketPath], directory: directory, beforeDaemon: beforeBuses)
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        return (daemon, compositor)
    }

    private func treeFile(in daemon: FollowedDaemon, _ text: String) throws -> String {
        let file = daemon.directory.appendingPathComponent("trees.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// A node's frame as `[width, height]`.
    private func size(_ node: JSONValue?) -> [Double]? {
        guard case .number(let width)? = node?["frame"]?["width"], case .number(let height)? = node?["frame"]?["height"] else { return nil }
        return [width, height]
    }

    /// The names of the events in `Watch` replies.
    private func eventNames(_ frames: [[String: Any]]) -> [String?] {
        frames.map { (($0["parameters"] as? [String: Any])?["event"] as? [String: Any])?["name"] as? String }
    }

    private func loginForm(_ root: JSONValue?) -> JSONValue? {
        guard case .array(let children)? = root?["children"], case .array(let form)? = children.first?["children"] else { return nil }
        return form.first
    }

    func testFollowOutput_whenSwayTurnsItsOutputToPortrait_thenEveryControllerTakesTheLogicalSizeAsFromAResize() throws {
        let (daemon, sway) = try start()
        try daemon.waitForRoot("the output's size") { self.size($0) == [1280, 720] }
        XCTAssertEqual(try daemon.waitForFollower("output", connected: true)["detail"], "the first output HEADLESS-1 is 1280×720")
        let watcher = try RawConnection(path: daemon.daemon.socketPath)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertEqual(watcher.receive(frames: 1).frames.count, 1)
        try sway.swaymsg("output", "HEADLESS-1", "resolution", "1080x1920")
        try daemon.waitForRoot("the portrait mode") { self.size($0) == [1080, 1920] && self.size(self.loginForm($0)) == [1080, 1920] }
        // sway reports a mode of 1080×1920 turned a quarter as a 1920×1080 logical rectangle.
        try sway.swaymsg("output", "HEADLESS-1", "transform", "90")
        try daemon.waitForRoot("the quarter turn") { self.size($0) == [1920, 1080] && self.size(self.loginForm($0)) == [1920, 1080] }
        XCTAssertEqual(eventNames(watcher.receive(frames: 2).frames), ["Resize", "Resize"], "the events of Resize")
        // A fractional scale, which only xdg-output's logical size says.
        try sway.swaymsg("output", "HEADLESS-1", "scale", "1.5")
        try daemon.waitForRoot("the scaled size") { self.size($0) == [1280, 720] }
        XCTAssertEqual(try daemon.waitForFollower("output", connected: true)["detail"], "the first output HEADLESS-1 is 1280×720")
    }

    func testFollowOutput_whenAClientResizesAFollowingTree_thenTheOutputOwnsTheSize() throws {
        let (daemon, _) = try start()
        try daemon.waitForRoot("the output's size") { self.size($0) == [1280, 720] }
        XCTAssertThrowsError(try daemon.client().call(method: Resize.name, parameters: ["width": 800, "height": 600])) { error in
            XCTAssertEqual(error as? VarlinkError, .windowOwnedByOutput(tree: "default", output: nil))
        }
        let ctl = try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath, "resize", "800x600"])
        XCTAssertEqual(ctl.status, 1)
        XCTAssertTrue(ctl.stderr.contains("follows the compositor's first output"), ctl.stderr)
        XCTAssertEqual(size(try daemon.root()), [1280, 720])
    }

    func testFollowOutput_whenSwayIsKilledAndStartedAgain_thenTheTreeKeepsItsSizeUntilTheNewOneSpeaks() throws {
        let (daemon, sway) = try start()
        try sway.swaymsg("output", "HEADLESS-1", "resolution", "1080x1920")
        try daemon.waitForRoot("the portrait mode") { self.size($0) == [1080, 1920] }
        sway.kill()
        let gone = try daemon.waitForFollower("output", connected: false)
        XCTAssertTrue(gone["detail"]?.stringValue?.hasSuffix("; trying again") == true, gone.jsonText)
        XCTAssertEqual(size(try daemon.root()), [1080, 1920], "the last size stands while no compositor says otherwise")
        try sway.start()
        try daemon.waitForRoot("the new compositor's size") { self.size($0) == [1280, 720] }
        XCTAssertEqual(try daemon.waitForFollower("output", connected: true)["detail"], "the first output HEADLESS-1 is 1280×720")
    }

    func testFollowOutput_whenNoCompositorIsThereAtStart_thenTheDaemonRunsAndFollowsItOnceItComes() throws {
        let (daemon, sway) = try start(beforeDaemon: { $0.kill() })
        let follower = try daemon.waitForFollower("output", connected: false)
        XCTAssertTrue(follower["detail"]?.stringValue?.hasPrefix("no Wayland compositor at ") == true, follower.jsonText)
        XCTAssertEqual(size(try daemon.root()), [1280, 800], "the tree file's size, and the daemon answers")
        let status = try Command.run(Products.appstatectl.path, ["--socket", daemon.daemon.socketPath, "status"])
        XCTAssertTrue(status.stdout.contains("output: disconnected (no Wayland compositor at"), status.stdout)
        try sway.start()
        try daemon.waitForRoot("the output's size") { self.size($0) == [1280, 720] }
    }

    func testFollowOutput_whenTwoTreesFollowTwoOutputs_thenEachFollowsItsOwnAndAnUnpluggedOneGivesBackTheFilesSize() throws {
        let (daemon, sway) = try start()
        let file = try treeFile(
            in: daemon,
            """
            trees:
              - name: main
                root: { type: Controller, id: main }
              - name: side
                output: HEADLESS-2
                window: { width: 640, height: 480 }
                root: { type: Controller, id: side }
            """)
        let second = try FollowedDaemon(
            arguments: ["--follow-output", "--tree-file", file], environment: ["WAYLAND_DISPLAY": try sway.socketPath],
            directory: daemon.directory.appendingPathComponent("second").creatingDirectory())
        addTeardownBlock(releasing: second) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        try second.waitForRoot("main on the first output", tree: "main") { self.size($0) == [1280, 720] }
        XCTAssertEqual(
            try second.waitForFollower("output", connected: true)["detail"],
            "the first output HEADLESS-1 is 1280×720; HEADLESS-2 is not connected, so its trees have their tree file's size")
        XCTAssertEqual(size(try second.root(of: "side")), [640, 480])
        // An output plugged in while the daemon runs.
        try sway.swaymsg("create_output")
        try sway.swaymsg("output", "HEADLESS-2", "resolution", "800x600")
        try second.waitForRoot("side on the second output", tree: "side") { self.size($0) == [800, 600] }
        try sway.swaymsg("output", "HEADLESS-1", "resolution", "1024x768")
        try second.waitForRoot("main on the first output", tree: "main") { self.size($0) == [1024, 768] }
        XCTAssertEqual(size(try second.root(of: "side")), [800, 600], "each tree follows its own output")
        XCTAssertThrowsError(try second.client().call(method: Resize.name, parameters: ["tree": "side", "width": 10, "height": 10])) { error in
            XCTAssertEqual(error as? VarlinkError, .windowOwnedByOutput(tree: "side", output: "HEADLESS-2"))
        }
        // The compositor comes back with its first output only: the second is unplugged.
        sway.kill()
        try sway.start()
        try second.waitForRoot("side back to its file's size", tree: "side") { self.size($0) == [640, 480] }
        try second.waitForRoot("main on the new first output", tree: "main") { self.size($0) == [1280, 720] }
        XCTAssertTrue(second.daemon.stderrText.contains("tree side: HEADLESS-2 is not connected"), second.daemon.stderrText)
    }

    func testFollowOutput_whenTheCommandLineNamesAnOutput_thenEveryTreeFollowsThatOne() throws {
        let (daemon, _) = try start(arguments: ["--follow-output", "HEADLESS-2"]) { sway in
            try sway.swaymsg("create_output")
            try sway.swaymsg("output", "HEADLESS-2", "resolution", "800x600")
        }
        try daemon.waitForRoot("the second output's size") { self.size($0) == [800, 600] }
        XCTAssertThrowsError(try daemon.client().call(method: Resize.name, parameters: ["width": 10, "height": 10])) { error in
            XCTAssertEqual(error as? VarlinkError, .windowOwnedByOutput(tree: "default", output: "HEADLESS-2"))
        }
    }

    func testFollowOutput_whenSIGHUPReadsATreeFileThatNamesAnOutput_thenTheTreeFollowsIt() throws {
        let (daemon, sway) = try start(arguments: []) { sway in
            try sway.swaymsg("output", "HEADLESS-1", "resolution", "800x600")
        }
        let file = try treeFile(in: daemon, "trees:\n  - name: main\n    root: { type: Controller, id: main }\n")
        let second = try FollowedDaemon(
            arguments: ["--tree-file", file], environment: ["WAYLAND_DISPLAY": try sway.socketPath],
            directory: daemon.directory.appendingPathComponent("second").creatingDirectory())
        addTeardownBlock(releasing: second) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        XCTAssertEqual(try second.followers(), [], "nothing followed")
        try "trees:\n  - name: main\n    output: HEADLESS-1\n    root: { type: Controller, id: main }\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        second.daemon.signal(SIGHUP)
        try second.waitForRoot("the output's size after the reload", tree: "main") { self.size($0) == [800, 600] }
        XCTAssertEqual(try second.waitForFollower("output", connected: true)["detail"], "HEADLESS-1 is 800×600")
    }

    func testAppstated_whenTheOutputIsNamedWrongly_thenRefusesToStart() throws {
        for arguments in [["--follow-output", "--output", "a b"], ["--follow-output=bad name"], ["--osk-source", "maliit"]] {
            let result = try Command.run(Products.appstated.path, ["--socket", "/nonexistent/io.appstate"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
    }

    func testFollowOutput_whenCageIsTheKiosk_thenTheTreeTakesItsOutputAndKeepsItWhenCageQuits() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        let cage = try HeadlessCompositor(.cage, in: directory)
        addTeardownBlock { cage.kill() }
        // No WAYLAND_DISPLAY, as in a user unit started before the compositor: the first
        // wayland-N socket of the runtime directory.
        let daemon = try FollowedDaemon(
            arguments: ["--follow-output"], environment: ["WAYLAND_DISPLAY": "", "XDG_RUNTIME_DIR": cage.runtimeDirectory.path],
            directory: directory)
        addTeardownBlock(releasing: daemon) { XCTAssertEqual($0.daemon.stop(), 0, $0.daemon.stderrText) }
        try daemon.waitForRoot("cage's output") { self.size($0) == [1280, 720] }
        cage.kill()
        _ = try daemon.waitForFollower("output", connected: false)
        XCTAssertEqual(size(try daemon.root()), [1280, 720])
        // cage started Xwayland as the compositors' user: X's socket directory stays as
        // systemd-tmpfiles makes it, so that the next user's cage can start Xwayland too.
        if getuid() == 0 {
            var status = stat()
            XCTAssertEqual(stat("/tmp/.X11-unix", &status), 0)
            XCTAssertEqual(status.st_uid, 0)
            XCTAssertEqual(status.st_mode & 0o7777, 0o1777)
        }
    }

    func testFollowOutputAndOSK_whenKWinsKeyboardIsUpAndTheOutputTurns_thenTheKeyboardMovesWithTheWindow() throws {
        var keyboard: BusMock?
        let (daemon, sway) = try start(
            arguments: ["--follow-output", "--follow-osk"],
            beforeBuses: { buses in keyboard = try BusMock(.kwin, on: buses.session, properties: ["visible": "<true>", "enabled": "<true>"]) })
        // squeekboard's rule for 1280×720: 360, half the height.
        try daemon.waitForRoot("the keyboard over the output's window") {
            self.size($0) == [1280, 720] && self.overlap($0) == 360
        }
        try sway.swaymsg("output", "HEADLESS-1", "resolution", "720x1280")
        // 720 wide: 420 high, at the bottom of the new window.
        try daemon.waitForRoot("the keyboard after the turn") { self.size($0) == [720, 1280] && self.overlap($0) == 420 }
        XCTAssertEqual(try daemon.waitForFollower("osk", connected: true)["detail"], "KWin: keyboard shown")
        withExtendedLifetime(keyboard) {}
    }

    /// The login screen's keyboard overlap, from the default tree while logged out.
    private func overlap(_ root: JSONValue?) -> JSONValue? {
        guard case .array(let children)? = root?["children"] else { return nil }
        return children.first { $0["identifier"] == "login" }?["keyboardOverlap"]
    }
}
