import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `appstatectl` end to end: the real binary against the real daemon, for every command's
/// output, its errors in words, its exit statuses and its `--json` shapes.
final class CtlEndToEndTests: AppStateTestCase {
    private var daemon: DaemonProcess!

    override func setUpWithError() throws {
        daemon = try DaemonProcess()
    }

    override func tearDown() {
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
        daemon = nil
    }

    /// Runs `appstatectl` against the test daemon, found through `APPSTATE_SOCKET`.
    @discardableResult
    private func ctl(_ arguments: String..., environment: [String: String] = [:]) throws -> Command {
        try Command.run(
            Products.appstatectl.path, arguments,
            environment: ["APPSTATE_SOCKET": daemon.socketPath, "NO_COLOR": "1"].merging(environment) { $1 }
        )
    }

    /// Asserts a successful run that printed `stdout` and nothing on stderr.
    private func assertOutput(_ command: Command, _ stdout: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(command.status, 0, command.stderr, file: file, line: line)
        XCTAssertEqual(command.stdout, stdout, file: file, line: line)
        XCTAssertEqual(command.stderr, "", file: file, line: line)
    }

    /// Asserts a failed run with `status` and the sentence `message` on stderr.
    private func assertFailure(
        _ command: Command, _ status: Int32, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(command.status, status, command.stderr, file: file, line: line)
        XCTAssertEqual(command.stdout, "", file: file, line: line)
        XCTAssertEqual(command.stderr, "appstatectl: \(message)\n", file: file, line: line)
    }

    private func json(_ command: Command, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        XCTAssertEqual(command.status, 0, command.stderr, file: file, line: line)
        XCTAssertEqual(command.stdout.filter { $0 == "\n" }.count, 1, "one line of JSON", file: file, line: line)
        return try JSONValue(jsonText: command.stdout.trimmingCharacters(in: .newlines))
    }

    func testCurrent_whenFreshDefaultTree_thenPrintsTheDeepestPathAndAContainersChild() throws {
        assertOutput(try ctl("current"), "session/login/login-form\n")
        assertOutput(try ctl("current", "session"), "session/login\n")
        let reply = try json(try ctl("current", "session", "--json"))
        XCTAssertEqual(reply["path"], "session/login")
        XCTAssertEqual(reply["node"]?["type"], "KeyboardAwareController")
        assertFailure(try ctl("current", "session/nope"), 1, "no node at session/nope")
    }

    func testCurrent_whenSocketOptionGiven_thenItWinsOverTheEnvironment() throws {
        let command = try Command.run(
            Products.appstatectl.path, ["current", "--socket", daemon.socketPath],
            environment: ["APPSTATE_SOCKET": "/nonexistent/io.appstate"]
        )
        assertOutput(command, "session/login/login-form\n")
    }

    func testLockUnlock_whenLoggedIn_thenTheTreeSaysLockedAndUnlockReturns() throws {
        try ctl("login", "ada")
        assertOutput(try ctl("lock"), "session/login\n")
        XCTAssertTrue(try ctl("tree").stdout.hasPrefix("session LoginStateController \"Session\" 1280×800+0+0, user ada, locked\n"))
        let again = try ctl("lock")
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stderr, "appstatectl: nothing to lock: nobody is logged in, or the session is locked already\n")
        assertOutput(try ctl("unlock"), "session/home\n")
        XCTAssertEqual(try json(try ctl("unlock", "--json")), ["changed": false, "path": "session/home"])
    }

    func testBlankWake_whenBlanked_thenTheRootSaysBlankedAndWakeTakesItAway() throws {
        assertOutput(try ctl("blank"), "blanked\n")
        XCTAssertTrue(try ctl("tree").stdout.hasPrefix("session LoginStateController \"Session\" 1280×800+0+0, logged out, blanked\n"))
        XCTAssertEqual(try json(try ctl("tree", "--json"))["root"]?["blanked"], true)
        let again = try ctl("blank")
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stdout, "blanked\n")
        XCTAssertEqual(again.stderr, "appstatectl: the screen was blanked already\n")
        assertOutput(try ctl("wake"), "awake\n")
        XCTAssertNil(try json(try ctl("tree", "--json"))["root"]?["blanked"], "absent while awake")
        XCTAssertEqual(try json(try ctl("wake", "--json")), ["changed": false])
        XCTAssertEqual(try ctl("wake").stderr, "appstatectl: the screen was not blanked\n")
    }

    func testGlobalOptions_whenGivenBeforeTheCommand_thenTheyApplyAsAfterIt() throws {
        let elsewhere = ["APPSTATE_SOCKET": "/nonexistent/io.appstate"]
        assertOutput(try ctl("--socket", daemon.socketPath, "current", environment: elsewhere), "session/login/login-form\n")
        assertOutput(try ctl("--socket", daemon.socketPath, "login", "ada", environment: elsewhere), "session/home\n")
        // A nested command, with the option before the group and its own option after the verb.
        assertOutput(try ctl("--socket", daemon.socketPath, "keyboard", "show", "--height", "300", environment: elsewhere), "")
        XCTAssertEqual(try json(try ctl("--json", "current", "session"))["path"], "session/home")
        XCTAssertEqual(try json(try ctl("--json", "--socket", daemon.socketPath, "page", "next", environment: elsewhere))["index"], 1)
        assertFailure(try ctl("--tree", "nope", "tree"), 1, "no tree named nope")

        let silent = daemon.directory.appendingPathComponent("silent").path
        let descriptor = try unixSocket(SOCK_STREAM, boundTo: silent)
        defer { close(descriptor) }
        XCTAssertEqual(listen(descriptor, 4), 0)
        assertFailure(
            try ctl("--timeout", "0.2", "--socket", silent, "current"), 75,
            "appstated did not answer within 0.2 seconds (\(silent)); try again or raise --timeout"
        )
        let usage = try ctl("--timeout", "0", "current")
        XCTAssertEqual(usage.status, 64, usage.stderr)
        XCTAssertTrue(usage.stderr.contains("--timeout must be a positive number of seconds, not 0"), usage.stderr)
    }

    func testLoginLogout_whenSomeoneElseIsLoggedIn_thenSwitchIsNeeded() throws {
        assertOutput(try ctl("login", "ada"), "session/home\n")
        assertFailure(try ctl("login", "bob"), 1, "ada is already logged in (log in with switch to replace them)")
        assertOutput(try ctl("login", "bob", "--switch"), "session/home\n")
        XCTAssertEqual(try json(try ctl("login", "bob", "--json")), ["path": "session/home"])
        assertOutput(try ctl("logout"), "session/login\n")
        let again = try ctl("logout")
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stdout, "session/login\n")
        XCTAssertEqual(again.stderr, "appstatectl: nobody was logged in\n")
        XCTAssertEqual(try json(try ctl("logout", "--json")), ["changed": false, "path": "session/login"])
    }

    func testPage_whenMovingByStepIdAndIndex_thenPrintsThePageAndRefusesTheImpossible() throws {
        try ctl("login", "ada")
        assertOutput(try ctl("page", "next"), "session/home/pages/activity\n")
        assertOutput(try ctl("page", "previous"), "session/home/pages/overview\n")
        assertOutput(try ctl("page", "settings", "--path", "session/home/pages"), "session/home/pages/settings\n")
        XCTAssertEqual(try json(try ctl("page", "0", "--json")), ["index": 0, "path": "session/home/pages/overview"])
        assertFailure(try ctl("page", "42"), 1, "session/home/pages has 3 pages; 42 is out of range")
        assertFailure(try ctl("page", "next", "--path", "session/home"), 1, "session/home is a MenuController, not a PaginatedController")
        assertFailure(try ctl("page", "nope"), 1, "session/home/pages has no child named nope")
        assertOutput(try ctl("current", "session/home/pages"), "session/home/pages/overview\n")
    }

    func testMenuAndNav_whenSelectingPushingAndPopping_thenPrintsTheNewCurrentPath() throws {
        try ctl("login", "ada")
        assertOutput(try ctl("menu", "select", "inbox"), "session/home/inbox\n")
        assertOutput(try ctl("nav", "push", "message"), "session/home/inbox/message\n")
        assertOutput(try ctl("current"), "session/home/inbox/message\n")
        assertOutput(try ctl("nav", "pop", "--path", "session/home/inbox"), "session/home/inbox/messages\n")
        let rootPop = try ctl("nav", "pop")
        XCTAssertEqual(rootPop.status, 1)
        XCTAssertTrue(rootPop.stderr.hasPrefix("appstatectl: cannot change session/home/inbox: "), rootPop.stderr)
        assertFailure(try ctl("menu", "select", "nope"), 1, "session/home has no child named nope")
    }

    func testKeyboardAndResize_whenChanged_thenTheTreeShowsInsetsAndFrames() throws {
        assertOutput(try ctl("keyboard", "show", "--height", "336", "--duration", "0"), "")
        let tree = try ctl("tree")
        XCTAssertEqual(tree.status, 0)
        XCTAssertTrue(tree.stdout.contains("└── login-form Controller \"Log in\" 1280×800+0+0, inset bottom 336 ◀ current\n"), tree.stdout)
        assertOutput(try ctl("keyboard", "hide", "--duration", "0"), "")
        assertOutput(try ctl("resize", "800x1280"), "")
        XCTAssertTrue(try ctl("tree").stdout.hasPrefix("session LoginStateController \"Session\" 800×1280+0+0, logged out\n"))
        XCTAssertEqual(try json(try ctl("resize", "1280x800", "--json")), [:])
    }

    /// The test daemon runs without --follow-osk: there is no keyboard to ask (the followed
    /// keyboard's case is FollowKeyboardTests').
    func testKeyboardRequest_whenTheDaemonFollowsNoKeyboard_thenExits1SayingWhy() throws {
        for visibility in ["show", "hide"] {
            assertFailure(
                try ctl("keyboard", "request", visibility), 1,
                "appstated has no on-screen keyboard to ask: the daemon was started without --follow-osk")
        }
        let json = try ctl("keyboard", "request", "show", "--json")
        XCTAssertEqual(json.status, 1)
        XCTAssertEqual(json.stdout, "")
        XCTAssertTrue(try ctl("tree").stdout.contains("login-form Controller \"Log in\" 1280×800+0+0 ◀ current\n"), "nothing changed")
    }

    func testTree_whenFreshDefaultTree_thenDrawsItAndJSONCarriesTheRoot() throws {
        assertOutput(
            try ctl("tree"),
            """
            session LoginStateController "Session" 1280×800+0+0, logged out
            ├── login KeyboardAwareController "Log in" 1280×800+0+0 ◀ current
            │   └── login-form Controller "Log in" 1280×800+0+0 ◀ current
            └── home MenuController "Pages" off screen, menu hidden
                ├── pages PaginatedController "Pages" off screen, index 0 of 3 ◀ current
                │   ├── overview Controller "Overview" off screen ◀ current
                │   ├── activity ContentStateController "Activity" off screen
                │   └── settings Controller "Settings" off screen
                ├── inbox NavigationController "Inbox" off screen
                │   └── messages Controller "Messages" off screen ◀ current
                └── dashboard StackController "Dashboard" off screen
                    ├── list Controller "List" off screen
                    └── map Controller "Map" off screen

            """)
        let reply = try json(try ctl("tree", "--json"))
        XCTAssertEqual(reply["root"]?["path"], "session")
        XCTAssertEqual(reply["root"]?["frame"], ["x": 0, "y": 0, "width": 1280, "height": 800])
        assertFailure(try ctl("tree", "--tree", "nope"), 1, "no tree named nope")
    }

    func testTreeSVG_whenTheKeyboardIsUp_thenDrawsTheWindowToScaleTheSameEachTime() throws {
        assertOutput(try ctl("keyboard", "show", "--height", "320", "--duration", "0"), "")
        let svg = try ctl("tree", "--svg")
        XCTAssertEqual(svg.status, 0, svg.stderr)
        XCTAssertTrue(svg.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), svg.stdout)
        XCTAssertTrue(svg.stdout.hasSuffix("</svg>\n"), svg.stdout)
        XCTAssertTrue(svg.stdout.contains(#"data-current-path="session/login/login-form""#), svg.stdout)
        XCTAssertTrue(svg.stdout.contains(#"<g data-keyboard="true" data-overlaps="session/login" data-frame="0 480 1280 320">"#), svg.stdout)
        XCTAssertTrue(
            svg.stdout.contains(#"<g data-path="session/login/login-form" data-type="Controller" data-frame="0 0 1280 800" data-current="true">"#),
            svg.stdout)
        XCTAssertTrue(svg.stdout.contains(#"data-path="session/home/dashboard/map" data-type="Controller" data-on-screen="false""#), svg.stdout)
        XCTAssertEqual(try ctl("tree", "--svg").stdout, svg.stdout, "the same tree gives the same bytes")
        let both = try ctl("tree", "--svg", "--json")
        XCTAssertEqual(both.status, 64, both.stderr)
        XCTAssertTrue(both.stderr.contains("--svg and --json cannot be used together"), both.stderr)
    }

    func testStatus_whenRunning_thenSaysWhereAndHowBusy() throws {
        let status = try ctl("status")
        XCTAssertEqual(status.status, 0, status.stderr)
        let lines = status.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "appstated 0.1.0 at \(daemon.socketPath)")
        XCTAssertTrue(lines.contains("      Trees: default"), status.stdout)
        XCTAssertTrue(lines.contains("      State: \(daemon.stateDirectory)"), status.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Connections: ") }, status.stdout)
        let reply = try json(try ctl("status", "--json"))
        XCTAssertEqual(reply["info"]?["product"], "appstated")
        XCTAssertEqual(reply["stats"]?["trees"], ["default"])
        XCTAssertNotNil(reply["stats"]?["watchers"]?.intValue)
    }

    func testPost_whenSessionNotification_thenTheLoginContainerFollowsIt() throws {
        assertOutput(try ctl("post", "session.didLogIn", "user=ada"), "")
        assertOutput(try ctl("current", "session"), "session/home\n")
        assertOutput(try ctl("post", "custom.event", "count=3", "ok=true", #"frame={"x":0}"#), "")
    }

    func testIntrospect_whenAsked_thenPrintsTheInterfaceFile() throws {
        let trimmed = AppStateInterface.description.trimmingCharacters(in: .newlines)
        assertOutput(try ctl("introspect"), trimmed + "\n")
        assertFailure(try ctl("introspect", "com.example.nope"), 1, "appstated does not provide the interface com.example.nope")
    }

    func testUsage_whenArgumentsAreWrong_thenExits64WithoutCallingTheDaemon() throws {
        for arguments in [
            ["page"], ["resize", "1280"], ["resize", "0x800"], ["tree", "--timeout", "0"],
            ["post", "x", "novalue"], ["keyboard", "show", "--duration", "90"], ["frobnicate"], ["keyboard", "request"],
            ["keyboard", "request", "up"],
        ] {
            let command = try Command.run(Products.appstatectl.path, arguments, environment: ["APPSTATE_SOCKET": daemon.socketPath])
            XCTAssertEqual(command.status, 64, "\(arguments): \(command.stderr)")
            XCTAssertFalse(command.stderr.isEmpty, "\(arguments)")
        }
    }

    func testUnreachable_whenNoSocket_thenExits69NamingTheSocket() throws {
        let missing = daemon.directory.appendingPathComponent("missing").path
        assertFailure(try ctl("current", "--socket", missing), 69, "appstated is not running: \(missing) does not exist")
    }

    func testUnreachable_whenNobodyListens_thenExits69WithConnectionRefused() throws {
        let stale = daemon.directory.appendingPathComponent("stale").path
        let descriptor = try unixSocket(SOCK_STREAM, boundTo: stale)
        close(descriptor)
        assertFailure(try ctl("status", "--socket", stale), 69, "appstated is not running: \(stale): connection refused")
    }

    func testTimeout_whenTheDaemonDoesNotAnswer_thenExits75() throws {
        let silent = daemon.directory.appendingPathComponent("silent").path
        let descriptor = try unixSocket(SOCK_STREAM, boundTo: silent)
        defer { close(descriptor) }
        // Listening without accepting: the connection completes in the backlog, the call is never read.
        XCTAssertEqual(listen(descriptor, 4), 0)
        assertFailure(
            try ctl("current", "--socket", silent, "--timeout", "0.2"), 75,
            "appstated did not answer within 0.2 seconds (\(silent)); try again or raise --timeout"
        )
    }

    /// The default socket follows the effective user: with only the effective user switched
    /// to nobody (the real one stays root) and no `XDG_RUNTIME_DIR`, there is none, and both
    /// tools say what to pass instead of trying the system socket.
    func testNoSocket_whenTheEffectiveUserHasNoRuntimeDirectory_thenAUsageErrorInWords() throws {
        _ = try XCTUnwrap(getuid() == 0 ? true : nil, "the privilege tests run as root, to switch to nobody with setpriv")
        let withoutSocket = [
            try resolveExecutable("env"), "-u", "XDG_RUNTIME_DIR", "-u", "APPSTATE_SOCKET",
            try resolveExecutable("setpriv"), "--euid=65534", "--",
        ]
        let sentence =
            "no socket given, and XDG_RUNTIME_DIR is not set, so uid 65534 has no default socket; pass --socket PATH or set APPSTATE_SOCKET"
        assertFailure(try Command.run(withoutSocket[0], Array(withoutSocket.dropFirst()) + [Products.appstatectl.path, "current"]), 64, sentence)
        let inspect = try Command.run(withoutSocket[0], Array(withoutSocket.dropFirst()) + [Products.appstateInspect.path])
        XCTAssertEqual(inspect.status, 64, inspect.stderr)
        XCTAssertEqual(inspect.stdout, "")
        XCTAssertEqual(inspect.stderr, "appstate-inspect: \(sentence)\n")

        let relative = try Command.run(
            try resolveExecutable("setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "--", Products.appstatectl.path, "status",
            ], environment: ["XDG_RUNTIME_DIR": "run/user/65534", "APPSTATE_SOCKET": ""])
        assertFailure(
            relative, 64,
            #"no socket given, and XDG_RUNTIME_DIR is "run/user/65534", not an absolute path, so uid 65534 has no default socket; pass --socket PATH or set APPSTATE_SOCKET"#
        )
    }

    func testPermissions_whenNobodyConnects_thenDeniedInWords() throws {
        _ = try XCTUnwrap(getuid() == 0 ? true : nil, "the privilege tests run as root, to switch to nobody with setpriv")
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", Products.appstatectl.path]
        let closed = try Command.run(try resolveExecutable("setpriv"), asNobody + ["current", "--socket", daemon.socketPath])
        XCTAssertEqual(closed.status, 69, closed.stderr)
        XCTAssertEqual(
            closed.stderr, "appstatectl: cannot reach appstated: \(daemon.socketPath): permission denied (ask to be added to the appstate group)\n")

        let open = try DaemonProcess(arguments: ["--socket-mode", "0666"])
        defer { XCTAssertEqual(open.stop(), 0) }
        let read = try Command.run(try resolveExecutable("setpriv"), asNobody + ["current", "--socket", open.socketPath])
        XCTAssertEqual(read.stdout, "session/login/login-form\n", read.stderr)
        let change = try Command.run(try resolveExecutable("setpriv"), asNobody + ["login", "mallory", "--socket", open.socketPath])
        XCTAssertEqual(change.status, 1)
        XCTAssertEqual(
            change.stderr,
            "appstatectl: permission denied: your user may not change appstated's state (ask to be added to the appstate group)\n"
        )
    }

    func testWatch_whenAnotherCommandLogsIn_thenPrintsTheSnapshotThenTheChange() throws {
        let watch = try WatchProcess(socket: daemon.socketPath, arguments: ["watch"])
        defer { watch.stop() }
        let snapshot = try XCTUnwrap(watch.nextLine(), "no snapshot line")
        XCTAssertTrue(snapshot.hasSuffix(" Snapshot session/login/login-form"), snapshot)
        XCTAssertNotNil(snapshot.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d "#, options: .regularExpression), snapshot)
        try ctl("login", "ada")
        let change = try XCTUnwrap(watch.nextLine(), "no line for the login")
        XCTAssertTrue(change.hasSuffix(" Login session/home/pages/overview"), change)
    }

    func testWatch_whenJSON_thenOneReplyObjectPerLine() throws {
        let watch = try WatchProcess(socket: daemon.socketPath, arguments: ["watch", "--json"])
        defer { watch.stop() }
        let snapshot = try JSONValue(jsonText: try XCTUnwrap(watch.nextLine()))
        XCTAssertNil(snapshot["event"])
        XCTAssertEqual(snapshot["root"]?["current"], "login")
        try ctl("login", "ada")
        let change = try JSONValue(jsonText: try XCTUnwrap(watch.nextLine()))
        XCTAssertEqual(change["event"]?["name"], "Login")
        XCTAssertEqual(change["event"]?["current"], "session/home/pages/overview")
        XCTAssertNil(change["root"], "later replies carry what changed, not the tree")
        XCTAssertEqual(change["patches"]?["session"]?["user"], "ada", "the login container's members that changed are sent")
        XCTAssertNil(change["changed"], "no list of children changed")
    }

    func testWatch_whenSubtrees_thenTheChangedSubtreeIsSentWhole() throws {
        let watch = try WatchProcess(socket: daemon.socketPath, arguments: ["watch", "--json", "--subtrees"])
        defer { watch.stop() }
        XCTAssertEqual(try JSONValue(jsonText: try XCTUnwrap(watch.nextLine()))["root"]?["current"], "login")
        try ctl("login", "ada")
        let change = try JSONValue(jsonText: try XCTUnwrap(watch.nextLine()))
        XCTAssertEqual(change["changed"]?[0]?["user"], "ada", "the login container changed, so its subtree is sent")
        XCTAssertNil(change["patches"])
    }

    func testWatch_whenFullAndAPath_thenEveryReplyCarriesThatSubtree() throws {
        let watch = try WatchProcess(socket: daemon.socketPath, arguments: ["watch", "--json", "--full", "--path", "session/home/pages"])
        defer { watch.stop() }
        let snapshot = try JSONValue(jsonText: try XCTUnwrap(watch.nextLine()))
        XCTAssertEqual(snapshot["root"]?["path"], "session/home/pages")
        try ctl("login", "ada")
        try ctl("page", "next")
        let login = try JSONValue(jsonText: try XCTUnwrap(watch.nextLine()))
        XCTAssertEqual(login["event"]?["name"], "Login", "the pages appeared when ada logged in")
        let page = try JSONValue(jsonText: try XCTUnwrap(watch.nextLine()))
        XCTAssertEqual(page["event"]?["name"], "SetPage")
        XCTAssertEqual(page["root"]?["path"], "session/home/pages")
        XCTAssertEqual(page["root"]?["pageIndex"], 1)
    }

    func testWatch_whenTheDaemonStops_thenExits69() throws {
        let watch = try WatchProcess(socket: daemon.socketPath, arguments: ["watch"])
        defer { watch.stop() }
        XCTAssertNotNil(watch.nextLine())
        XCTAssertEqual(daemon.stop(), 0)
        XCTAssertNil(watch.nextLine())
        let (status, stderr) = watch.waitForExit()
        XCTAssertEqual(status, 69)
        XCTAssertEqual(stderr, "appstatectl: appstated closed the connection (\(daemon.socketPath))\n")
        try daemon.restart()
    }
}

/// `appstatectl watch` running in the background, read line by line with a time limit so
/// that a missing line fails the test instead of hanging it.
private final class WatchProcess {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer: [UInt8] = []

    init(socket: String, arguments: [String]) throws {
        process.executableURL = Products.appstatectl
        process.arguments = arguments + ["--socket", socket]
        process.standardOutput = output
        process.standardError = errors
        try process.runAsTestChild()
    }

    /// The next line of output, or `nil` at the end of the output or after `timeout`.
    func nextLine(timeout: Duration = .seconds(10)) -> String? {
        let deadline = ContinuousClock.now + timeout
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&entry, 1, max(milliseconds, 1)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Waits for the process to end and returns its exit status and what it wrote to stderr.
    func waitForExit() -> (status: Int32, stderr: String) {
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stderr)
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
