import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The state directory under faults: a full disk and a read-only one (mutations refused
/// with `io.appstate.StorageFailure`, the trees rolled back, reads answered, nothing
/// acknowledged lost, mutations durable again once the disk is), damaged state files at
/// start (set aside beside the state file, said in the journal, the trees at the tree file's
/// initial state), and a crash while logged out. The small disks are tmpfs mounts in a mount
/// namespace of the test's own (``MountNamespace``), gone with the daemon inside it.
final class ReliabilityStorageTests: AppStateTestCase {
    private var namespace: MountNamespace?
    private var scratch: URL?
    private var daemonOnTmpfs: DaemonProcess?

    override func tearDownWithError() throws {
        // Whatever the test did: the daemon first, which keeps the namespace alive, then its
        // holder, and with both the mount.
        daemonOnTmpfs?.kill9()
        daemonOnTmpfs = nil
        namespace?.close()
        namespace = nil
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
        try super.tearDownWithError()
    }

    /// Starts a daemon whose state directory is a 64 KiB tmpfs of a namespace of this test.
    private func startOnTmpfs() throws -> (daemon: DaemonProcess, namespace: MountNamespace) {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        scratch = directory
        let state = try directory.appendingPathComponent("state", isDirectory: true).creatingDirectory().path
        let namespace = try MountNamespace(tmpfs: state, size: "64k")
        self.namespace = namespace
        let daemon = try DaemonProcess(executable: Products.appstated, wrapper: namespace.wrapper, directory: directory)
        daemonOnTmpfs = daemon
        return (daemon, namespace)
    }

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

    /// Asserts that the tree is as it was, but for what is off screen (see
    /// ``Reliability/normalized(_:)``).
    private func assertUnchanged(_ before: JSONValue, _ socket: String, _ message: String, line: UInt = #line) throws {
        let after = try Reliability.tree(socket)
        XCTAssertNil(Reliability.difference(Reliability.normalized(before), Reliability.normalized(after)), message, line: line)
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testFullDisk_whenMutating_thenStorageFailureTreeRolledBackAndAcknowledgedStateSurvives() throws {
        let (daemon, namespace) = try startOnTmpfs()
        let socket = daemon.socketPath
        var client = try VarlinkClient(path: socket)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["id": "settings"])
        _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "inbox"])
        _ = try client.call(method: "io.appstate.Push", parameters: ["id": "message"])
        let filler = try namespace.fill(daemon.stateDirectory)
        // The journal's last page still takes records, as a disk's last block does: page turns
        // are acknowledged until it is full, and each of them is kept.
        var turns = 0
        while turns < 500,
            (try? client.call(method: "io.appstate.SetPage", parameters: ["path": "session/home/pages", "index": .number(Double(1 + turns % 2))]))
                != nil
        {
            turns += 1
        }
        XCTAssertLessThan(turns, 500, "the journal grows without end on a full disk")
        let page = try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"]
        let acknowledged = try Reliability.tree(socket)
        let stateFile = namespace.outside(daemon.stateDirectory + "/state.json")
        let journalFile = namespace.outside(daemon.stateDirectory + "/state.journal")
        let saved = try [bytes(stateFile), bytes(journalFile)]
        let watcher = try ProbeConnection(path: socket)
        watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
        XCTAssertNotNil(watcher.nextFrame()?["parameters"])

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
            try assertUnchanged(acknowledged, socket, "\(method) changed the tree although it was refused")
        }
        // The failed writes took their temporary file and their part of a record with them,
        // and the files are as acknowledged.
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: namespace.outside(daemon.stateDirectory)).sorted(),
            ["filler", "state.journal", "state.json"])
        XCTAssertEqual(try [bytes(stateFile), bytes(journalFile)], saved)
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
            "full disk: \(refused.count + 1) mutations refused with StorageFailure (ENOSPC on a 64 KiB tmpfs), tree unchanged after each, no temporary file left"
        )

        // A crash on the full disk loses nothing acknowledged; reading state needs no space.
        daemon.kill9()
        try daemon.restart()
        client = try VarlinkClient(path: socket)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/inbox/message")
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"], page)
        XCTAssertEqual(try client.call(method: "io.appstate.GetTree")["root"]?["user"], "ada")

        // Space again: mutations are durable again, without a restart, and survive a crash.
        try FileManager.default.removeItem(atPath: namespace.outside(filler))
        XCTAssertEqual(try client.call(method: "io.appstate.Logout")["changed"], true)
        daemon.kill9()
        try daemon.restart()
        client = try VarlinkClient(path: socket)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
        XCTAssertTrue(daemon.stderrText.contains("storage failure"), daemon.stderrText)
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testReadOnlyStateDirectory_whenMutatingOrStarting_thenReadsAnswerAndMutationsAreRefusedUntilWritable() throws {
        let (daemon, namespace) = try startOnTmpfs()
        let socket = daemon.socketPath
        var client = try VarlinkClient(path: socket)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["id": "settings"])
        let acknowledged = try Reliability.tree(socket)

        try namespace.remount(daemon.stateDirectory, readOnly: true)
        for (method, parameters) in [
            ("io.appstate.Logout", [:]), ("io.appstate.SetPage", ["index": 0]), ("io.appstate.Push", ["id": "compose"]),
        ] as [(String, [String: JSONValue])] {
            assertStorageFailure(client, method, parameters, reason: "Read-only file system")
            try assertUnchanged(acknowledged, socket, "\(method) changed the tree although it was refused")
        }
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/settings")
        XCTAssertNoThrow(try client.call(method: "io.appstate.Resize", parameters: ["width": 1024, "height": 768]), "transient: no write")

        // Started on the read-only directory, it restores what was saved and answers reads.
        daemon.kill9()
        try daemon.restart()
        client = try VarlinkClient(path: socket)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/settings")
        XCTAssertEqual(try client.call(method: "io.appstate.GetTree")["root"]?["user"], "ada")
        assertStorageFailure(client, "io.appstate.Logout", reason: "Read-only file system")

        // Writable again: the next mutation is saved, without a restart.
        try namespace.remount(daemon.stateDirectory, readOnly: false)
        XCTAssertEqual(try client.call(method: "io.appstate.Logout")["changed"], true)
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)

        // A damaged file it cannot set aside stops the start, naming the file: starting anyway
        // would replace it on the first write once the directory is writable.
        let stateFile = namespace.outside(daemon.stateDirectory + "/state.json")
        let garbage = Data("{\"version\":1,\"tr".utf8)
        try garbage.write(to: URL(fileURLWithPath: stateFile))
        try namespace.remount(daemon.stateDirectory, readOnly: true)
        let run = try Reliability.run(
            namespace.wrapper[0],
            Array(namespace.wrapper.dropFirst()) + [Products.appstated.path, "--socket", socket, "--state-dir", daemon.stateDirectory])
        XCTAssertFalse(run.timedOut, "the daemon started on a damaged file it could not set aside")
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains(daemon.stateDirectory + "/state.json") && run.stderr.contains("Read-only file system"), run.stderr)
        XCTAssertEqual(try bytes(stateFile), garbage)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: namespace.outside(daemon.stateDirectory)).sorted(), ["state.journal", "state.json"])
        Reliability.report(
            "read-only state directory: reads answered, mutations refused with StorageFailure (EROFS), a damaged file not set aside stops the start")
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
            try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])["path"], "session/home/pages/settings")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testStart_whenStateFileDamaged_thenStartsAtTheInitialStateKeepingEachFileAside() throws {
        // A real state file to damage.
        let daemon = try DaemonProcess()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["index": 2])
        XCTAssertEqual(daemon.stop(), 0)
        let stateFile = daemon.stateDirectory + "/state.json"
        let good = try bytes(stateFile)
        // The page turn went to the journal, which goes aside with the first damaged snapshot.
        let journalFile = daemon.stateDirectory + "/state.journal"
        let goodJournal = try bytes(journalFile)
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
            ("version 0", Data(#"{"version":0,"trees":{}}"#.utf8)),
            ("100,000 nested arrays", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)),
            ("8 MiB of garbage", Data(repeating: UInt8(ascii: "x"), count: 8 << 20)),
        ]
        var kept: [String: Data] = [:]
        for (name, content) in damaged {
            try content.write(to: URL(fileURLWithPath: stateFile))
            try daemon.restart()
            let restarted = try VarlinkClient(path: daemon.socketPath)
            XCTAssertEqual(try restarted.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form", name)
            XCTAssertEqual(daemon.stop(), 0, "\(name): \(daemon.stderrText)")
            // Beside the state file, under a name of its own: an earlier one is never replaced.
            let aside = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory)
                .filter { $0.hasPrefix("state.json.corrupt-") && kept[$0] == nil }
            XCTAssertEqual(aside.count, 1, "\(name): \(aside)")
            guard let moved = aside.first else { continue }
            kept[moved] = content
            XCTAssertTrue(
                daemon.stderrText.contains("state file set aside: \(stateFile) is not a valid state file")
                    && daemon.stderrText.contains("kept as \(stateFile).\(moved.dropFirst("state.json.".count))"),
                "\(name): the journal does not say where the file went: \(daemon.stderrText)")
            XCTAssertFalse(daemon.stderrText.contains("Fatal error"), "\(name): \(daemon.stderrText)")
        }
        for (moved, content) in kept {
            XCTAssertEqual(try bytes(daemon.stateDirectory + "/" + moved), content, "\(moved) was changed")
        }
        XCTAssertEqual(kept.count, damaged.count)

        // Not damage: a file of a newer appstated, or one that cannot be read, stops the start,
        // named, and stays where it is.
        let loud: [(String, () throws -> Void)] = [
            ("a newer version", { try Data(#"{"version":3,"trees":{}}"#.utf8).write(to: URL(fileURLWithPath: stateFile)) }),
            (
                "a tree document of a newer version",
                { try Data(#"{"version":1,"trees":{"default":{"version":99,"controllers":{}}}}"#.utf8).write(to: URL(fileURLWithPath: stateFile)) }
            ),
            (
                "a directory in its place",
                {
                    try FileManager.default.removeItem(atPath: stateFile)
                    try FileManager.default.createDirectory(atPath: stateFile, withIntermediateDirectories: false)
                }
            ),
        ]
        for (name, damage) in loud {
            try damage()
            let before = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory).sorted()
            let content = try? bytes(stateFile)
            let run = try Reliability.run(Products.appstated.path, ["--socket", daemon.socketPath, "--state-dir", daemon.stateDirectory])
            XCTAssertFalse(run.timedOut, "\(name): the daemon started")
            XCTAssertFalse(run.signaled, "\(name): the daemon crashed: \(run.stderr)")
            XCTAssertNotEqual(run.status, 0, name)
            XCTAssertTrue(run.stderr.contains(stateFile), "\(name): the error does not name the file: \(run.stderr)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory).sorted(), before, name)
            XCTAssertEqual(try? bytes(stateFile), content, name)
        }
        try FileManager.default.removeItem(atPath: stateFile)
        Reliability.report(
            "damaged state files: \(damaged.count) kinds set aside at start, each under a name of its own and logged, the trees at the initial state; \(loud.count) kinds that are not damage refused at start, no crash"
        )

        // Put back, with a half-written temporary file beside it as a crash mid-write leaves:
        // the daemon restores the real file and removes the temporary one.
        try good.write(to: URL(fileURLWithPath: stateFile))
        try goodJournal.write(to: URL(fileURLWithPath: journalFile))
        try good.prefix(7).write(to: URL(fileURLWithPath: daemon.stateDirectory + "/.state.json.tmp"))
        try daemon.restart()
        let restarted = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try restarted.call(method: "io.appstate.GetCurrent")["path"], "session/home/pages/settings")
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.stateDirectory + "/.state.json.tmp"))
        XCTAssertEqual(try restarted.call(method: "io.appstate.SetPage", parameters: ["index": 0])["index"], 0)
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }
}
