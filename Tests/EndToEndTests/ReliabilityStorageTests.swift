import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The state directory under faults: a full disk and a read-only one (mutations refused
/// with `io.appstate.StorageFailure`, the trees rolled back, nothing acknowledged lost),
/// damaged state files at start (a clear error naming the file, the file left as it was,
/// never a crash or a silent reset), and a crash while logged out.
final class ReliabilityStorageTests: AppStateTestCase {
    private func assertStorageFailure(
        _ client: VarlinkClient, _ method: String, _ parameters: [String: JSONValue] = [:],
        reason: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try client.call(method: method, parameters: parameters), file: file, line: line) { error in
            let error = error as? VarlinkError
            XCTAssertEqual(error?.name, "io.appstate.StorageFailure", "\(method): \(String(describing: error))", file: file, line: line)
            XCTAssertTrue(
                error?.parameters["reason"]?.stringValue?.contains(reason) == true,
                "\(method): \(String(describing: error))", file: file, line: line)
        }
    }

    /// Fills a file system: writes until the kernel says ENOSPC.
    private func fill(_ directory: String) throws -> String {
        let path = directory + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let block = [UInt8](repeating: 0xAA, count: 512)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        XCTAssertEqual(errno, ENOSPC)
        fsync(fd)
        return path
    }

    func testFullDisk_whenMutating_thenStorageFailureTreeRolledBackAndAcknowledgedStateSurvives() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        let state = try directory.appendingPathComponent("state", isDirectory: true).creatingDirectory().path
        guard Reliability.mountTmpfs(at: state, size: "64k") else {
            throw XCTSkip("cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): no way to produce ENOSPC")
        }
        defer {
            Reliability.unmount(state)
            try? FileManager.default.removeItem(at: directory)
        }
        var daemon: DaemonProcess? = try DaemonProcess(directory: directory)
        defer { daemon?.kill9() }
        let socket = daemon!.socketPath
        var client = try VarlinkClient(path: socket)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["id": "settings"])
        _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "inbox"])
        _ = try client.call(method: "io.appstate.Push", parameters: ["id": "message"])
        let acknowledged = try Reliability.tree(socket)
        let watcher = try ProbeConnection(path: socket)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertNotNil(watcher.nextFrame()?["parameters"])

        let filler = try fill(state)
        // Every kind of durable mutation is refused, and each leaves the tree as it was.
        let refused: [(String, [String: JSONValue])] = [
            ("io.appstate.Logout", [:]),
            ("io.appstate.Login", ["user": "bob", "switch": true]),
            ("io.appstate.SetPage", ["index": 0]),
            ("io.appstate.SelectMenuItem", ["id": "dashboard"]),
            ("io.appstate.Push", ["id": "compose"]),
            ("io.appstate.Pop", [:]),
            ("io.appstate.Post", ["name": "session.didLogOut"]),
            ("io.appstate.Post", ["name": "session.didLogIn", "userInfo": ["user": "mallory"]]),
        ]
        for (method, parameters) in refused {
            assertStorageFailure(client, method, parameters, reason: "No space left on device")
            let after = try Reliability.tree(socket)
            XCTAssertNil(
                Reliability.difference(Reliability.normalized(acknowledged), Reliability.normalized(after)),
                "\(method) changed the tree although it was refused")
        }
        // In one batch, the durable change is refused and undone, the transient one stays.
        let raw = try ProbeConnection(path: socket)
        raw.send(
            Array(#"{"method":"io.appstate.SetPage","parameters":{"index":0}}"#.utf8) + [0]
                + Array(#"{"method":"io.appstate.Resize","parameters":{"width":1024,"height":768}}"#.utf8) + [0])
        XCTAssertEqual(raw.nextFrame()?["error"] as? String, "io.appstate.StorageFailure")
        XCTAssertNil(raw.nextFrame()?["error"])
        // Watchers saw no refused change: the next event is the resize, on the rolled-back tree.
        let event = (watcher.nextFrame()?["parameters"] as? [String: Any])?["event"] as? [String: Any]
        XCTAssertEqual(event?["name"] as? String, "Resize")
        XCTAssertEqual(event?["current"] as? String, "session/home/inbox/message")
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/inbox/message")
        Reliability.report(
            "full disk: \(refused.count + 1) mutations refused with StorageFailure (ENOSPC on a 64 KiB tmpfs), tree unchanged after each")

        // A crash on the full disk loses nothing acknowledged; reading state needs no space.
        daemon!.kill9()
        try daemon!.restart()
        client = try VarlinkClient(path: socket)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/inbox/message")
        XCTAssertEqual(
            try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"],
            "session/home/pages/settings")
        XCTAssertEqual(try client.call(method: "io.appstate.GetTree")["root"]?["user"], "ada")

        // Space again: mutations are durable again, and survive a crash.
        try FileManager.default.removeItem(atPath: filler)
        XCTAssertEqual(try client.call(method: "io.appstate.Logout")["changed"], true)
        daemon!.kill9()
        try daemon!.restart()
        client = try VarlinkClient(path: socket)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")

        // A read-only state directory is refused the same way.
        XCTAssertEqual(try Command.run("/usr/bin/mount", ["-o", "remount,ro", state]).status, 0)
        let loggedOut = try Reliability.tree(socket)
        assertStorageFailure(client, "io.appstate.Login", ["user": "carol"], reason: "Read-only file system")
        XCTAssertNil(Reliability.difference(Reliability.normalized(loggedOut), Reliability.normalized(try Reliability.tree(socket))))
        XCTAssertEqual(try Command.run("/usr/bin/mount", ["-o", "remount,rw", state]).status, 0)
        XCTAssertEqual(try client.call(method: "io.appstate.Login", parameters: ["user": "carol"])["path"], "session/home")
        XCTAssertTrue(daemon!.stderrText.contains("storage failure"), daemon!.stderrText)
        XCTAssertEqual(daemon!.stop(), 0, daemon!.stderrText)
        daemon = nil
    }

    func testRestart_whenKilledWhileLoggedOut_thenTheLoggedInChildKeepsItsPageMenuAndStack() throws {
        let daemon = try DaemonProcess()
        var client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["id": "settings"])
        _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "inbox"])
        _ = try client.call(method: "io.appstate.Push", parameters: ["id": "compose"])
        _ = try client.call(method: "io.appstate.Logout")
        daemon.kill9()
        try daemon.restart()
        client = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/inbox/compose")
        XCTAssertEqual(
            try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"],
            "session/home/pages/settings")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testStart_whenStateFileDamaged_thenRefusesNamingTheFileAndLeavesItAsItWas() throws {
        // A real state file to damage.
        let daemon = try DaemonProcess()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["index": 2])
        XCTAssertEqual(daemon.stop(), 0)
        let stateFile = daemon.stateDirectory + "/state.json"
        let good = try Data(contentsOf: URL(fileURLWithPath: stateFile))
        var garbage = Data(count: 4096)
        garbage.withUnsafeMutableBytes { raw in
            var seed: UInt64 = 0x5EED
            for index in raw.indices {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                raw[index] = UInt8(truncatingIfNeeded: seed >> 56)
            }
        }
        let damaged: [(String, Data)] = [
            ("empty", Data()),
            ("one byte", good.prefix(1)),
            ("truncated in half", good.prefix(good.count / 2)),
            ("last byte missing", good.prefix(good.count - 1)),
            ("NUL bytes", Data(count: good.count)),
            ("random bytes", garbage),
            (
                "invalid UTF-8",
                Data(#"{"version":1,"trees":{"default":{"version":1,"controllers":{"session":{"user":""#.utf8) + Data([0xFF, 0xFE])
                    + Data(#""}}}}}"#.utf8)
            ),
            ("an array", Data("[]".utf8)),
            ("an empty object", Data("{}".utf8)),
            ("null", Data("null".utf8)),
            ("trees of the wrong type", Data(#"{"version":1,"trees":5}"#.utf8)),
            ("a newer version", Data(#"{"version":2,"trees":{}}"#.utf8)),
            ("a tree document of another version", Data(#"{"version":1,"trees":{"default":{"version":99,"controllers":{}}}}"#.utf8)),
            ("100,000 nested arrays", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)),
            ("8 MiB of garbage", Data(repeating: UInt8(ascii: "x"), count: 8 << 20)),
        ]
        for (name, content) in damaged {
            try content.write(to: URL(fileURLWithPath: stateFile))
            let run = try Reliability.run(Products.appstated.path, ["--socket", daemon.socketPath, "--state-dir", daemon.stateDirectory])
            XCTAssertFalse(run.timedOut, "\(name): the daemon started on a damaged state file")
            XCTAssertFalse(run.signaled, "\(name): the daemon crashed: \(run.stderr)")
            XCTAssertNotEqual(run.status, 0, "\(name)")
            XCTAssertTrue(run.stderr.contains(stateFile), "\(name): the error does not name the file: \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("Fatal error"), "\(name): \(run.stderr)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stateFile)), content, "\(name): the state file was changed")
        }
        // A directory where the file should be.
        try FileManager.default.removeItem(atPath: stateFile)
        try FileManager.default.createDirectory(atPath: stateFile, withIntermediateDirectories: false)
        let directoryRun = try Reliability.run(Products.appstated.path, ["--socket", daemon.socketPath, "--state-dir", daemon.stateDirectory])
        XCTAssertFalse(directoryRun.timedOut)
        XCTAssertNotEqual(directoryRun.status, 0)
        XCTAssertTrue(directoryRun.stderr.contains(stateFile), directoryRun.stderr)
        try FileManager.default.removeItem(atPath: stateFile)
        Reliability.report(
            "damaged state files: \(damaged.count + 1) kinds refused at start, each naming \(stateFile.split(separator: "/").last!), none changed, no crash"
        )

        // Put back, with a half-written temporary file beside it as a crash mid-write leaves:
        // the daemon restores the real file and overwrites the temporary one on the next write.
        try good.write(to: URL(fileURLWithPath: stateFile))
        try good.prefix(7).write(to: URL(fileURLWithPath: daemon.stateDirectory + "/.state.json.tmp"))
        try daemon.restart()
        let restarted = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try restarted.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/settings")
        XCTAssertEqual(try restarted.call(method: "io.appstate.SetPage", parameters: ["index": 0])["index"], 0)
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }
}
