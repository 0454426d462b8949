import AppStateIPC
import Foundation
import TestSupport
import XCTest

@testable import AppStateHost

#if canImport(Glibc)
    import Glibc
#endif

/// Who may change state (docs/reliability/privilege.md), with real peers of other users
/// started through `setpriv`: root, the daemon's own user, members of the allowed group (by the
/// group database and by primary group) and nobody, each against EVERY mutating method
/// (the Post of the session notifications included), with the reads open to all who can
/// connect. Runs as root (to switch users); the group database is replaced in a private
/// mount namespace, so the machine's /etc/group is never touched.
final class ReliabilityPrivilegeTests: AppStateTestCase {
    /// Every mutating method once, in an order where each succeeds for a peer allowed to
    /// mutate, starting logged out on the default tree.
    private static let mutations: [(method: AppStateMethod, frame: String)] = [
        (.login, #"{"method":"io.appstate.Login","parameters":{"user":"ada"}}"#),
        (.setPage, #"{"method":"io.appstate.SetPage","parameters":{"index":1}}"#),
        (.selectMenuItem, #"{"method":"io.appstate.SelectMenuItem","parameters":{"id":"inbox"}}"#),
        (.push, #"{"method":"io.appstate.Push","parameters":{"id":"message"}}"#),
        (.pop, #"{"method":"io.appstate.Pop"}"#),
        (.present, #"{"method":"io.appstate.Present","parameters":{"id":"notice"}}"#),
        (.dismiss, #"{"method":"io.appstate.Dismiss"}"#),
        (.showKeyboard, #"{"method":"io.appstate.ShowKeyboard","parameters":{"height":200}}"#),
        (.hideKeyboard, #"{"method":"io.appstate.HideKeyboard"}"#),
        (.resize, #"{"method":"io.appstate.Resize","parameters":{"width":1024,"height":768}}"#),
        (.blank, #"{"method":"io.appstate.Blank"}"#),
        (.wake, #"{"method":"io.appstate.Wake"}"#),
        (
            .reportFrontEnd,
            #"{"method":"io.appstate.ReportFrontEnd","parameters":{"kind":"kiosk","name":"privilege test","state":"live","livenessInterval":60}}"#
        ),
        (.post, #"{"method":"io.appstate.Post","parameters":{"name":"kiosk.refresh"}}"#),
        (.post, #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogOut"}}"#),
        (.post, #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn","userInfo":{"user":"bob"}}}"#),
        (.lock, #"{"method":"io.appstate.Lock"}"#),
        (.unlock, #"{"method":"io.appstate.Unlock"}"#),
        (.logout, #"{"method":"io.appstate.Logout"}"#),
    ]

    /// The mutating methods that hold their connection (`Inhibit`), each tried on a connection
    /// of its own: a call behind one would close it.
    private static let holds: [(method: AppStateMethod, frame: String)] = [
        (.inhibit, #"{"method":"io.appstate.Inhibit","parameters":{"why":"privilege test"},"more":true}"#)
    ]

    /// The mutating methods that ask a system service rather than change a tree
    /// (`RequestKeyboard`), with what a peer allowed to mutate gets from this daemon, which
    /// follows no keyboard: not `PermissionDenied`.
    private static let asks: [(method: AppStateMethod, frame: String, allowed: String)] = [
        (.requestKeyboard, #"{"method":"io.appstate.RequestKeyboard","parameters":{"visible":true}}"#, "io.appstate.NoKeyboardFollowed")
    ]

    private static let reads = [
        #"{"method":"io.appstate.GetTree"}"#,
        #"{"method":"io.appstate.GetCurrent"}"#,
        #"{"method":"io.appstate.GetCurrent","parameters":{"path":"session"}}"#,
        #"{"method":"io.appstate.GetStats"}"#,
        #"{"method":"org.varlink.service.GetInfo"}"#,
        #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"io.appstate"}}"#,
    ]

    private enum Peer {
        case root
        case user(uid: uid_t, gid: gid_t, groups: [gid_t])

        static let nobody = Peer.user(uid: 65534, gid: 65534, groups: [])

        var setpriv: [String] {
            get throws {
                switch self {
                case .root: []
                case .user(let uid, let gid, let groups):
                    [try resolveExecutable("setpriv"), "--reuid=\(uid)", "--regid=\(gid)"]
                        + (groups.isEmpty ? ["--clear-groups"] : ["--groups=\(groups.map(String.init).joined(separator: ","))"]) + ["--"]
                }
            }
        }
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(getuid() == 0, "the privilege tests run as root, to switch users with setpriv")
    }

    /// Sends frames on one connection as `peer` (with socat, which half-closes at the end
    /// of its input so the daemon answers and closes) and returns the replies.
    private func exchange(_ socket: String, as peer: Peer, _ frames: [String], linger: Int = 3) throws -> (replies: [[String: Any]], output: String) {
        let input: [UInt8] = frames.flatMap { frame -> [UInt8] in Array(frame.utf8) + [0] }
        let socat = [try resolveExecutable("socat"), "-t", "\(linger)", "-", "UNIX-CONNECT:\(socket)"]
        let command = try peer.setpriv + socat
        let result = try Command.run(command[0], Array(command.dropFirst()), input: input)
        let replies = result.stdout.split(separator: "\u{0}").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return (replies, result.stdout + result.stderr)
    }

    private func errorNames(_ replies: [[String: Any]]) -> [String?] {
        replies.map { $0["error"] as? String }
    }

    /// Every mutating method is covered by `mutations`, so a new one cannot slip past.
    func testCoverage_whenAMutatingMethodIsAdded_thenThisSuiteCoversIt() {
        XCTAssertEqual(
            Set((Self.mutations + Self.holds).map(\.method.rawValue) + Self.asks.map(\.method.rawValue)),
            MethodRegistry.appState.methods.filter { MethodRegistry.appState.entry($0)?.effect.isMutation == true })
    }

    /// Checks that `peer` may mutate: every mutation answers without error and takes effect.
    private func assertMayMutate(_ socket: String, as peer: Peer, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (replies, output) = try exchange(socket, as: peer, Self.mutations.map(\.frame) + [#"{"method":"io.appstate.GetTree"}"#])
        XCTAssertEqual(replies.count, Self.mutations.count + 1, "\(name): \(output)", file: file, line: line)
        for (index, reply) in replies.prefix(Self.mutations.count).enumerated() {
            XCTAssertNil(reply["error"], "\(name): \(Self.mutations[index].frame) → \(reply)", file: file, line: line)
        }
        // The changes happened: the last one logged out, the window has the new size.
        let root = (replies.last?["parameters"] as? [String: Any])?["root"] as? [String: Any]
        XCTAssertEqual(root?["current"] as? String, "login", "\(name)", file: file, line: line)
        XCTAssertEqual((root?["frame"] as? [String: Any])?["width"] as? Double, 1024, "\(name)", file: file, line: line)
        // Put the window back for the next peer.
        _ = try exchange(socket, as: .root, [#"{"method":"io.appstate.Resize","parameters":{"width":1280,"height":800}}"#])
        for hold in Self.holds {
            let (replies, output) = try exchange(socket, as: peer, [hold.frame], linger: 1)
            XCTAssertEqual(replies.first?["continues"] as? Bool, true, "\(name): \(hold.frame) → \(output)", file: file, line: line)
        }
        let (asked, askOutput) = try exchange(socket, as: peer, Self.asks.map(\.frame))
        XCTAssertEqual(errorNames(asked), Self.asks.map(\.allowed), "\(name): \(askOutput)", file: file, line: line)
    }

    /// Checks that `peer` may read but not mutate: every mutation is PermissionDenied and the
    /// tree is exactly as it was; every read, and Watch, answers.
    private func assertMayOnlyRead(_ socket: String, as peer: Peer, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Reliability.tree(socket)
        let (replies, output) = try exchange(socket, as: peer, Self.mutations.map(\.frame) + Self.reads)
        XCTAssertEqual(replies.count, Self.mutations.count + Self.reads.count, "\(name): \(output)", file: file, line: line)
        XCTAssertEqual(
            errorNames(Array(replies.prefix(Self.mutations.count))),
            Array(repeating: "org.varlink.service.PermissionDenied", count: Self.mutations.count), "\(name)", file: file, line: line)
        XCTAssertEqual(
            errorNames(Array(replies.dropFirst(Self.mutations.count))), Array(repeating: nil, count: Self.reads.count),
            "\(name): reads must work", file: file, line: line)
        XCTAssertNil(Reliability.difference(before, try Reliability.tree(socket)), "\(name): the tree changed", file: file, line: line)
        for hold in Self.holds {
            let (replies, output) = try exchange(socket, as: peer, [hold.frame], linger: 1)
            XCTAssertEqual(errorNames(replies), ["org.varlink.service.PermissionDenied"], "\(name): \(output)", file: file, line: line)
        }
        let (asked, askOutput) = try exchange(socket, as: peer, Self.asks.map(\.frame))
        XCTAssertEqual(
            errorNames(asked), Array(repeating: "org.varlink.service.PermissionDenied", count: Self.asks.count), "\(name): \(askOutput)", file: file,
            line: line)
        // Watch is a read too: the snapshot comes.
        let (watch, watchOutput) = try exchange(socket, as: peer, [#"{"method":"io.appstate.Watch","more":true}"#], linger: 1)
        XCTAssertNotNil((watch.first?["parameters"] as? [String: Any])?["root"], "\(name): \(watchOutput)", file: file, line: line)
    }

    func testRootDaemon_whenRootAndNobodyCall_thenRootMutatesAndNobodyOnlyReads() throws {
        let daemon = try DaemonProcess(arguments: ["--socket-mode", "0666"])
        try assertMayOnlyRead(daemon.socketPath, as: .nobody, "nobody")
        try assertMayMutate(daemon.socketPath, as: .root, "root")
        // Another unprivileged user, with an unrelated supplementary group, is no different.
        try assertMayOnlyRead(daemon.socketPath, as: .user(uid: 4720, gid: 4720, groups: [4721]), "uid 4720")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    /// One unprivileged user opens more connections than a user may hold and keeps them:
    /// the connections past its limit are told so and closed, and root and another user
    /// still connect and are answered meanwhile.
    func testConnectionStorm_whenOneUserHoldsAllItsPlaces_thenRootAndOtherUsersAreStillServed() throws {
        let daemon = try DaemonProcess(arguments: ["--socket-mode", "0666", "--max-connections-per-user", "8"])
        let storm = Process()
        // Debian's python3, which any user may run (a python3 earlier in PATH may live in root's home).
        let command = try Peer.nobody.setpriv + [try resolveExecutable("/usr/bin/python3"), "-c", Self.stormScript, daemon.socketPath, "12"]
        storm.executableURL = URL(fileURLWithPath: command[0])
        storm.arguments = Array(command.dropFirst())
        let (input, output) = (Pipe(), Pipe())
        storm.standardInput = input
        storm.standardOutput = output
        try storm.runAsTestChild()
        defer {
            try? input.fileHandleForWriting.close()
            storm.waitUntilExit()
        }
        // The script prints what each of its connections was answered, then holds them all.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed.append(chunk)
        }
        let answers = try XCTUnwrap(try JSONSerialization.jsonObject(with: printed) as? [String], String(decoding: printed, as: UTF8.self))
        XCTAssertEqual(answers.filter { $0 == "ok" }.count, 8, "\(answers)")
        XCTAssertEqual(answers.filter { $0 == "io.appstate.TooManyConnections" }.count, 4, "\(answers)")

        guard case .object(let tree) = try Reliability.tree(daemon.socketPath) else { return XCTFail("GetTree gave no object") }
        XCTAssertNotNil(tree["root"], "root reads while nobody holds its places")
        let (replies, replyOutput) = try exchange(
            daemon.socketPath, as: .user(uid: 4720, gid: 4720, groups: []), [#"{"method":"io.appstate.GetCurrent"}"#])
        XCTAssertEqual(errorNames(replies), [nil], "another user reads too: \(replyOutput)")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    /// Opens N connections to a socket, calls GetInfo on each, prints a JSON list of what each
    /// was answered ("ok" or the error's name), then keeps them open until its input closes.
    private static let stormScript = """
        import json, socket, sys
        path, count = sys.argv[1], int(sys.argv[2])
        connections = []
        for _ in range(count):
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.settimeout(20)
            connection.connect(path)
            connection.sendall(b'{"method":"org.varlink.service.GetInfo"}\\0')
            connections.append(connection)
        answers = []
        for connection in connections:
            data = b""
            while not data.endswith(b"\\0"):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                data += chunk
            reply = json.loads(data.rstrip(b"\\0")) if data else {"error": "closed without a reply"}
            answers.append(reply.get("error", "ok"))
        print(json.dumps(answers), flush=True)
        sys.stdin.read()
        """

    func testDaemonAsItsOwnUser_whenThatUserRootAndNobodyCall_thenTheFirstTwoMutate() throws {
        // The daemon runs unprivileged (uid 4711, as `User=appstate` would), not root.
        let daemon = try DaemonProcess(
            wrapper: [try resolveExecutable("setpriv"), "--reuid=4711", "--regid=4711", "--clear-groups", "--"],
            arguments: ["--socket-mode", "0666"], owner: (4711, 4711))
        XCTAssertEqual(
            try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
                .split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(separator: "\t").dropFirst().first, "4711")
        try assertMayMutate(daemon.socketPath, as: .user(uid: 4711, gid: 4711, groups: []), "the daemon's own uid")
        try assertMayMutate(daemon.socketPath, as: .root, "root")
        try assertMayOnlyRead(daemon.socketPath, as: .nobody, "nobody")
        // Same primary group as the daemon but another uid: not the daemon's user.
        try assertMayOnlyRead(daemon.socketPath, as: .user(uid: 4719, gid: 4711, groups: []), "uid 4719 in the daemon's primary group")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testAllowedGroup_whenMembersAndStrangersCall_thenMembersMutateAndStrangersCannotEvenConnect() throws {
        // A group database where `appstate` (gid 4712) lists nobody, in a private mount namespace.
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let groups = directory.appendingPathComponent("group")
        try (String(contentsOfFile: "/etc/group", encoding: .utf8) + "appstate:x:4712:nobody\n").write(to: groups, atomically: true, encoding: .utf8)
        let wrapper = ["/usr/bin/unshare", "--mount", "--", "/bin/sh", "-c", #"mount --bind "$0" /etc/group && exec "$@""#, groups.path]
        let probe = try Command.run(wrapper[0], Array(wrapper.dropFirst()) + ["/usr/bin/getent", "group", "appstate"])
        guard probe.status == 0, probe.stdout.contains("4712") else {
            throw XCTSkip("cannot replace the group database in a mount namespace here: \(probe.stderr)")
        }
        // The default configuration: group `appstate`, socket 0660 owned by that group.
        let daemon = try DaemonProcess(wrapper: wrapper)
        var status = stat()
        XCTAssertEqual(stat(daemon.socketPath, &status), 0)
        XCTAssertEqual(status.st_gid, 4712)
        XCTAssertEqual(status.st_mode & 0o777, 0o660)
        // nobody is a member by the group database, and its session has the group.
        try assertMayMutate(daemon.socketPath, as: .user(uid: 65534, gid: 65534, groups: [4712]), "nobody, member of appstate")
        // A user whose primary group is appstate (no password entry at all).
        try assertMayMutate(daemon.socketPath, as: .user(uid: 4713, gid: 4712, groups: []), "uid 4713, primary group appstate")
        try assertMayMutate(daemon.socketPath, as: .root, "root")
        // A stranger cannot connect to the 0660 socket at all: the first line of defence.
        let (replies, output) = try exchange(daemon.socketPath, as: .user(uid: 4714, gid: 4714, groups: []), [#"{"method":"io.appstate.Logout"}"#])
        XCTAssertTrue(replies.isEmpty, output)
        XCTAssertTrue(output.contains("Permission denied"), output)
        // A member by the process's groups only (not in the database), with a socket it can
        // reach: the database decides, so it only reads.
        XCTAssertEqual(chmod(daemon.socketPath, 0o666), 0)
        try assertMayOnlyRead(daemon.socketPath, as: .user(uid: 4714, gid: 4714, groups: [4712]), "uid 4714 with the group in its process only")
        try assertMayOnlyRead(daemon.socketPath, as: .user(uid: 4714, gid: 4714, groups: []), "uid 4714")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
        Reliability.report(
            "privilege: \(Self.mutations.count) mutating calls (all \(Set(Self.mutations.map(\.method)).count) mutating methods, Post of session.didLogIn/didLogOut included) and \(Self.reads.count) reads plus Watch, per peer"
        )
    }
}
