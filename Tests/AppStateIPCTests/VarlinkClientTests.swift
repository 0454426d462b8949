import AppStateIPC
import Foundation
import Glibc
import TestSupport
import XCTest

final class VarlinkClientTests: AppStateTestCase {
    private var servers: [TestVarlinkServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    private func server(_ handler: @escaping @Sendable (VarlinkCall) -> [TestVarlinkServer.Action]) throws -> TestVarlinkServer {
        let server = try TestVarlinkServer(handler: handler)
        servers.append(server)
        return server
    }

    private static let node = Node(path: "session/home", identifier: "home", type: "MenuController", appearance: .appeared, onScreen: true)

    // MARK: calls

    func testCall_whenServerReplies_thenReturnsParametersAndSentTheCall() throws {
        let server = try server { call in [.reply(VarlinkReply(parameters: ["echo": .object(call.parameters)]))] }
        let client = try VarlinkClient(path: server.path)
        XCTAssertEqual(try client.call(method: "io.appstate.Echo", parameters: ["a": [1, "b"]]), ["echo": ["a": [1, "b"]]])
        XCTAssertEqual(server.calls, [VarlinkCall(method: "io.appstate.Echo", parameters: ["a": [1, "b"]])])
    }

    func testCall_whenTyped_thenEncodesParametersAndDecodesReply() throws {
        let server = try server { call in
            guard call.method == GetCurrent.name, call.parameters == ["path": "session"] else {
                return [.reply(VarlinkReply(error: .invalidParameter("path")))]
            }
            return [.reply(VarlinkReply(parameters: GetCurrent.Reply(path: "session/home", node: Self.node).parameters))]
        }
        let client = try VarlinkClient(path: "unix:" + server.path)
        let reply = try client.call(GetCurrent.self, .init(path: "session"))
        XCTAssertEqual(reply, GetCurrent.Reply(path: "session/home", node: Self.node))
    }

    func testCall_whenSeveralCallsInARow_thenEachGetsItsOwnReply() throws {
        let server = try server { call in [.reply(VarlinkReply(parameters: ["method": .string(call.method)]))] }
        let client = try VarlinkClient(path: server.path)
        for index in 0..<200 {
            XCTAssertEqual(try client.call(method: "a.M\(index)"), ["method": .string("a.M\(index)")])
        }
    }

    func testCall_whenServerRepliesWithError_thenThrowsVarlinkError() throws {
        let server = try server { _ in [.reply(VarlinkReply(error: .noSuchNode(path: "session/x")))] }
        let client = try VarlinkClient(path: server.path)
        XCTAssertThrowsError(try client.call(GetCurrent.self, .init(path: "session/x"))) { error in
            XCTAssertEqual(error as? VarlinkError, .noSuchNode(path: "session/x"))
        }
        XCTAssertThrowsError(try client.call(method: GetTree.name), "the connection stays usable after an error reply") { error in
            XCTAssertEqual(error as? VarlinkError, .noSuchNode(path: "session/x"))
        }
    }

    func testCall_whenReplyDoesNotMatchMethod_thenInvalidReply() throws {
        let server = try server { _ in [.reply(VarlinkReply(parameters: ["path": 3]))] }
        let client = try VarlinkClient(path: server.path)
        XCTAssertThrowsError(try client.call(Pop.self, .init())) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .invalidReply)
            XCTAssertTrue("\(error)".contains("io.appstate.Pop"), "\(error)")
        }
    }

    func testCall_whenServerSendsGarbage_thenProtocolViolationAndClientStaysBroken() throws {
        let server = try server { _ in [.raw(Array("not json".utf8) + [0])] }
        let client = try VarlinkClient(path: server.path)
        XCTAssertThrowsError(try client.call(method: "a.B")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .protocolViolation)
        }
        XCTAssertThrowsError(try client.call(method: "a.B")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .protocolViolation)
        }
    }

    func testCall_whenReplyContinuesWithoutMore_thenProtocolViolation() throws {
        let server = try server { _ in [.reply(VarlinkReply(continues: true))] }
        let client = try VarlinkClient(path: server.path)
        XCTAssertThrowsError(try client.call(method: "a.B")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .protocolViolation)
        }
    }

    func testCall_whenServerClosesTheConnection_thenConnectionClosed() throws {
        let server = try server { _ in [.closeConnection] }
        let client = try VarlinkClient(path: server.path)
        XCTAssertThrowsError(try client.call(method: "a.B")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .connectionClosed)
        }
    }

    func testCall_whenServerNeverAnswers_thenTimedOutAfterTheTimeout() throws {
        let server = try server { _ in [] }
        let client = try VarlinkClient(path: server.path, timeout: .milliseconds(200))
        let start = ContinuousClock.now
        XCTAssertThrowsError(try client.call(method: "a.B")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .timedOut)
        }
        let elapsed = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(190))
        XCTAssertLessThan(elapsed, .seconds(5))
    }

    func testCall_whenReplyIsLargerThanOneRead_thenReassembled() throws {
        let big = String(repeating: "x", count: 300_000)
        let server = try server { _ in [.reply(VarlinkReply(parameters: ["big": .string(big)]))] }
        let client = try VarlinkClient(path: server.path)
        XCTAssertEqual(try client.call(method: "a.B")["big"], .string(big))
    }

    func testCall_whenReplyExceedsTheClientLimit_thenProtocolViolation() throws {
        let server = try server { _ in [.reply(VarlinkReply(parameters: ["big": .string(String(repeating: "x", count: 5000))]))] }
        let client = try VarlinkClient(path: server.path, maximumMessageSize: 1000)
        XCTAssertThrowsError(try client.call(method: "a.B")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .protocolViolation)
        }
    }

    // MARK: oneway

    func testSend_whenOneway_thenServerGetsOnewayAndNextCallGetsTheNextReply() throws {
        let server = try server { call in [.reply(VarlinkReply(parameters: ["m": .string(call.method)]))] }
        let client = try VarlinkClient(path: server.path)
        try client.send(method: Post.name, parameters: Post.Parameters(name: "x").parameters)
        XCTAssertEqual(try client.call(method: "a.After"), ["m": "a.After"])
        XCTAssertEqual(server.calls.first, VarlinkCall(method: Post.name, parameters: ["name": "x"], oneway: true))
    }

    // MARK: streams

    func testStream_whenServerContinues_thenEachReplyThenNil() throws {
        let server = try server { call in
            guard call.more else { return [.reply(VarlinkReply(error: .expectedMore))] }
            return (0..<3).map { .reply(VarlinkReply(parameters: ["n": .number(Double($0))], continues: $0 < 2)) }
        }
        let client = try VarlinkClient(path: server.path)
        var stream = try client.stream(method: Watch.name)
        XCTAssertEqual(try stream.next(), ["n": 0])
        XCTAssertEqual(try stream.next(), ["n": 1])
        XCTAssertEqual(try stream.next(), ["n": 2])
        XCTAssertNil(try stream.next())
        XCTAssertNil(try stream.next())
        XCTAssertEqual(server.calls.first?.more, true)
        XCTAssertThrowsError(try client.call(method: Watch.name), "the connection is free again") { error in
            XCTAssertEqual(error as? VarlinkError, .expectedMore)
        }
    }

    func testStream_whenTyped_thenDecodesWatchReplies() throws {
        let root = Self.node
        let event = Event(tree: "main", name: "Login", path: "session", current: "session/home")
        let server = try server { _ in
            [
                .reply(VarlinkReply(parameters: Watch.Reply(root: root).parameters, continues: true)),
                .reply(VarlinkReply(parameters: Watch.Reply(event: event, root: root).parameters, continues: true)),
            ]
        }
        let client = try VarlinkClient(path: server.path)
        var stream = try client.stream(method: Watch.name, parameters: TreeParameters(tree: "main").parameters)
        XCTAssertEqual(try stream.next(as: Watch.self), Watch.Reply(root: root))
        XCTAssertEqual(try stream.next(as: Watch.self), Watch.Reply(event: event, root: root))
    }

    func testStream_whenServerRepliesWithError_thenThrowsAndEnds() throws {
        let server = try server { _ in
            [.reply(VarlinkReply(parameters: ["n": 1], continues: true)), .reply(VarlinkReply(error: .watcherTooSlow(queued: 64)))]
        }
        let client = try VarlinkClient(path: server.path)
        var stream = try client.stream(method: Watch.name)
        XCTAssertEqual(try stream.next(), ["n": 1])
        XCTAssertThrowsError(try stream.next()) { error in
            XCTAssertEqual(error as? VarlinkError, .watcherTooSlow(queued: 64))
        }
        XCTAssertNil(try stream.next())
    }

    func testCall_whileStreamIsRunning_thenBusy() throws {
        let server = try server { _ in [.reply(VarlinkReply(parameters: ["n": 1], continues: true))] }
        let client = try VarlinkClient(path: server.path)
        var stream = try client.stream(method: Watch.name)
        XCTAssertEqual(try stream.next(), ["n": 1])
        XCTAssertThrowsError(try client.call(method: GetTree.name)) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .busy)
        }
        XCTAssertThrowsError(try client.stream(method: Watch.name)) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .busy)
        }
    }

    func testClose_whenAStreamIsWaiting_thenItWakesWithConnectionClosed() throws {
        let server = try server { _ in [.reply(VarlinkReply(parameters: ["n": 1], continues: true))] }
        let client = try VarlinkClient(path: server.path)
        var stream = try client.stream(method: Watch.name)
        XCTAssertEqual(try stream.next(), ["n": 1])
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { client.close() }
        XCTAssertThrowsError(try stream.next()) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .connectionClosed)
        }
    }

    // MARK: async

    func testCallAsync_whenServerReplies_thenReturnsTypedReply() async throws {
        let server = try server { _ in [.reply(VarlinkReply(parameters: ["changed": true, "path": "session/login"]))] }
        let client = try VarlinkClient(path: server.path)
        let reply = try await client.call(Logout.self, .init())
        XCTAssertEqual(reply, Logout.Reply(changed: true, path: "session/login"))
        let untyped = try await client.call(method: Logout.name)
        XCTAssertEqual(untyped, ["changed": true, "path": "session/login"])
    }

    func testCallAsync_whenServerRepliesWithError_thenThrowsVarlinkError() async throws {
        let server = try server { _ in [.reply(VarlinkReply(error: .permissionDenied))] }
        let client = try VarlinkClient(path: server.path)
        do {
            _ = try await client.call(Login.self, .init(user: "ann"))
            XCTFail("no error thrown")
        } catch {
            XCTAssertEqual(error as? VarlinkError, .permissionDenied)
        }
    }

    func testRepliesAsync_whenServerStreams_thenYieldsEachReplyAndFinishes() async throws {
        let server = try server { _ in
            (0..<5).map {
                .reply(VarlinkReply(parameters: Watch.Reply(event: Event(tree: "t", name: "N\($0)", current: "c")).parameters, continues: $0 < 4))
            }
        }
        let client = try VarlinkClient(path: server.path)
        var names: [String] = []
        for try await reply in client.replies(Watch.self, .init()) {
            names.append(reply.event?.name ?? "")
        }
        XCTAssertEqual(names, ["N0", "N1", "N2", "N3", "N4"])
    }

    func testRepliesAsync_whenConsumerStopsEarly_thenConnectionIsClosed() async throws {
        let server = try server { _ in [.reply(VarlinkReply(parameters: ["n": 1], continues: true))] }
        let client = try VarlinkClient(path: server.path)
        for try await reply in client.replies(method: Watch.name) {
            XCTAssertEqual(reply, ["n": 1])
            break
        }
        let deadline = ContinuousClock.now + .seconds(5)
        var lastError: (any Error)?
        while ContinuousClock.now < deadline {
            do {
                _ = try await client.call(method: GetTree.name)
            } catch {
                lastError = error
                if (error as? VarlinkClientError)?.kind == .connectionClosed { break }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual((lastError as? VarlinkClientError)?.kind, .connectionClosed)
    }

    // MARK: connecting

    func testConnect_whenSocketDoesNotExist_thenNotFoundNamingThePath() {
        let path = "/tmp/appstate-ipc-missing-\(getpid()).sock"
        XCTAssertThrowsError(try VarlinkClient(path: path)) { error in
            let error = error as? VarlinkClientError
            XCTAssertEqual(error?.kind, .notFound)
            XCTAssertEqual(error?.errorNumber, ENOENT)
            XCTAssertEqual(error?.isUnreachable, true)
            XCTAssertEqual(error?.description, "cannot connect to \(path): no such socket (is the service running?)")
        }
        XCTAssertThrowsError(try VarlinkClient(path: "/nonexistent-dir-\(getpid())/x.sock")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .notFound)
        }
    }

    func testConnect_whenNobodyListens_thenConnectionRefused() throws {
        let path = "/tmp/appstate-ipc-stale-\(getpid()).sock"
        let descriptor = try TestVarlinkServer.bindSocket(at: path, listen: false)
        defer {
            close(descriptor)
            unlink(path)
        }
        XCTAssertThrowsError(try VarlinkClient(path: path)) { error in
            let error = error as? VarlinkClientError
            XCTAssertEqual(error?.kind, .connectionRefused)
            XCTAssertEqual(error?.isUnreachable, true)
            XCTAssertTrue(error?.description.contains(path) ?? false)
        }
    }

    func testConnect_whenPathIsARegularFile_thenConnectionRefused() throws {
        let path = "/tmp/appstate-ipc-file-\(getpid())"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { unlink(path) }
        XCTAssertThrowsError(try VarlinkClient(path: path)) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .connectionRefused)
        }
    }

    func testConnect_whenSocketIsNotAccessible_thenPermissionDenied() throws {
        if geteuid() == 0 {
            try runAsNobody(#function)
            return
        }
        let server = try server { _ in [] }
        chmod(server.path, 0)
        XCTAssertThrowsError(try VarlinkClient(path: server.path)) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .permissionDenied)
        }
    }

    /// Root may connect to any socket, so as root the test runs itself again in this test
    /// binary as user nobody; it is skipped where that cannot be done.
    private func runAsNobody(_ function: String) throws {
        let setpriv = URL(fileURLWithPath: try resolveExecutable("setpriv"))
        let process = Process()
        process.executableURL = setpriv
        let test = "AppStateIPCTests.VarlinkClientTests/" + function.replacingOccurrences(of: "()", with: "")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CommandLine.arguments[0], test]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.runAsTestChild()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try XCTSkipUnless(printed.contains("Executed 1 test"), "could not run the test as nobody: \(printed)")
        XCTAssertEqual(process.terminationStatus, 0, printed)
        XCTAssertFalse(printed.contains("skipped"), printed)
    }

    func testConnectError_whenClassifyingErrno_thenDistinguishesTheCauses() {
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: ENOENT, socketPath: "p").kind, .notFound)
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: ENOTDIR, socketPath: "p").kind, .notFound)
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: EACCES, socketPath: "p").kind, .permissionDenied)
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: EPERM, socketPath: "p").kind, .permissionDenied)
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: ECONNREFUSED, socketPath: "p").kind, .connectionRefused)
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: EAGAIN, socketPath: "p").kind, .timedOut)
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: EAGAIN, socketPath: "p").isUnreachable, true)
        XCTAssertEqual(VarlinkClientError(connectErrorNumber: EMFILE, socketPath: "p").kind, .systemError)
        XCTAssertEqual(
            VarlinkClientError(connectErrorNumber: EACCES, socketPath: "/run/appstate/io.appstate").description,
            "cannot connect to /run/appstate/io.appstate: permission denied"
        )
        XCTAssertEqual(VarlinkClientError(.timedOut, socketPath: "p", detail: "waiting for a reply").isUnreachable, false)
    }

    func testConnect_whenPathIsTooLongOrEmpty_thenInvalidAddress() {
        XCTAssertThrowsError(try VarlinkClient(path: "/tmp/" + String(repeating: "x", count: 200))) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .invalidAddress)
        }
        XCTAssertThrowsError(try VarlinkClient(path: "unix:")) { error in
            XCTAssertEqual((error as? VarlinkClientError)?.kind, .invalidAddress)
        }
    }
}
