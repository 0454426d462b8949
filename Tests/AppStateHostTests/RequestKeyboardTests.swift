import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// `RequestKeyboard` asks the followed keyboard and answers once it has: refused like a
/// change, the batch's earlier changes committed before it waits, no tree changed by it, and
/// counted like any call.
final class RequestKeyboardTests: AppStateTestCase {
    private func connection(mayMutate: Bool = true) -> ConnectionContext {
        ConnectionContext(peer: Peer(pid: 1, uid: mayMutate ? 0 : 4720, gid: 0, mayMutate: mayMutate), watcher: ClosedWatcher())
    }

    private func request(_ parameters: [String: JSONValue]) -> VarlinkCall {
        VarlinkCall(method: RequestKeyboard.name, parameters: parameters)
    }

    @MainActor private func processor(keyboard: RecordingKeyboard?, store: StateStore? = nil) throws -> RequestProcessor {
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: store)
        processor.systemKeyboard = keyboard
        return processor
    }

    /// Starts a batch, and returns what the processor has replied so far: nothing until the
    /// batch is done.
    @MainActor private func start(_ calls: [VarlinkCall], on processor: RequestProcessor, mayMutate: Bool = true) -> () -> [VarlinkReply?]? {
        var replies: [VarlinkReply?]?
        processor.process(calls, on: connection(mayMutate: mayMutate)) { replies = $0 }
        return { replies }
    }

    @MainActor private func waitFor<Value>(_ value: () -> Value?) async -> Value {
        while true {
            if let value = value() { return value }
            await Task.yield()
        }
    }

    @MainActor func testRequestKeyboard_whenTheDaemonFollowsNoKeyboard_thenNoKeyboardFollowedSaysSo() async throws {
        let processor = try processor(keyboard: nil)
        let replies = await processor.process([request(["visible": true])], on: connection())
        XCTAssertEqual(replies.first??.error, "io.appstate.NoKeyboardFollowed")
        XCTAssertEqual(replies.first??.parameters, ["reason": "the daemon was started without --follow-osk"])
    }

    @MainActor func testRequestKeyboard_whenAsked_thenTheKeyboardIsAskedAndTheReplyWaitsForItsAnswer() async throws {
        let keyboard = RecordingKeyboard()
        let processor = try processor(keyboard: keyboard)
        let before = await processor.process([VarlinkCall(method: GetTree.name)], on: connection())

        let replies = start(
            [request(["visible": true]), VarlinkCall(method: GetTree.name), request(["visible": false, "tree": "default"])], on: processor)
        XCTAssertEqual(keyboard.asked, [true], "the second request waits for the first's answer")
        XCTAssertNil(replies(), "nothing is replied before the keyboard answered")
        keyboard.answer(.success(()))
        await waitFor { keyboard.waiting > 0 ? true : nil }
        XCTAssertEqual(keyboard.asked, [true, false])
        XCTAssertNil(replies())
        keyboard.answer(.success(()))
        let answered = await waitFor(replies)

        XCTAssertEqual(answered.map { $0?.error }, [nil, nil, nil])
        XCTAssertEqual(answered.first??.parameters, [:])
        XCTAssertEqual(answered[1]?.parameters, before.first??.parameters, "the request changes no tree")
        let stats = await processor.process([VarlinkCall(method: GetStats.name)], on: connection())
        XCTAssertEqual(stats.first??.parameters["requests"], 4, "counted as every call is")
        XCTAssertTrue(
            processor.exposition.contains(#"appstate_requests_total{method="io.appstate.RequestKeyboard",outcome="ok"} 2"#), processor.exposition)
    }

    @MainActor func testRequestKeyboard_whenTheKeyboardFails_thenItsErrorIsTheReplyAndTheBatchGoesOn() async throws {
        let keyboard = RecordingKeyboard()
        let processor = try processor(keyboard: keyboard)
        let replies = start([request(["visible": true]), VarlinkCall(method: Login.name, parameters: ["user": "ada"])], on: processor)
        let failure = VarlinkError.keyboardRequestFailed(keyboard: "squeekboard", reason: "sm.puri.OSK0.SetVisible on /sm/puri/OSK0 got no answer")
        keyboard.answer(.failure(failure))
        let answered = await waitFor(replies)

        XCTAssertEqual(answered.first??.error, failure.name)
        XCTAssertEqual(answered.first??.parameters, failure.parameters)
        XCTAssertEqual(answered.last??.parameters, ["path": "session/home"])
        XCTAssertTrue(
            processor.exposition.contains(
                #"appstate_requests_total{method="io.appstate.RequestKeyboard",outcome="io.appstate.KeyboardRequestFailed"} 1"#),
            processor.exposition)
    }

    @MainActor func testRequestKeyboard_whenAChangeComesBeforeIt_thenTheChangeIsDurableBeforeTheKeyboardIsAsked() async throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path)
        let keyboard = RecordingKeyboard()
        let processor = try processor(keyboard: keyboard, store: store)

        let replies = start([VarlinkCall(method: Login.name, parameters: ["user": "ada"]), request(["visible": true])], on: processor)
        await waitFor { keyboard.asked.isEmpty ? nil : true }
        let saved = try StateDocument.decode(try XCTUnwrap(try store.load()), path: store.path)
        XCTAssertEqual(saved.trees["default"]?.controllers["session"]?["user"], "ada", "written before the batch waits for the keyboard")
        XCTAssertNil(replies())
        keyboard.answer(.success(()))
        let answered = await waitFor(replies)
        XCTAssertEqual(answered.map { $0?.error }, [nil, nil])
    }

    @MainActor func testRequestKeyboard_whenRefused_thenTheKeyboardIsNotAsked() async throws {
        let keyboard = RecordingKeyboard()
        let processor = try processor(keyboard: keyboard)
        let denied = await processor.process([request(["visible": true])], on: connection(mayMutate: false))
        XCTAssertEqual(denied.first??.error, "org.varlink.service.PermissionDenied")
        let refused = await processor.process(
            [
                request(["visible": true, "tree": "nope"]), request([:]), request(["visible": "yes"]),
                VarlinkCall(method: RequestKeyboard.name, parameters: ["visible": true], upgrade: true),
            ], on: connection())
        XCTAssertEqual(
            refused.map { $0?.error },
            [
                "io.appstate.NoSuchTree", "org.varlink.service.InvalidParameter", "org.varlink.service.InvalidParameter",
                "org.varlink.service.MethodNotImplemented",
            ])
        XCTAssertEqual(keyboard.asked, [])
    }

    /// Refusals are answered in the batch's loop, not each from the answer of the one before:
    /// a batch of many (one read of a connection may hold thousands) does not grow the stack.
    @MainActor func testRequestKeyboard_whenABatchHoldsManyRefusedRequests_thenEachIsAnsweredWithoutRecursion() async throws {
        let keyboard = RecordingKeyboard()
        let processor = try processor(keyboard: keyboard)
        let count = 100_000
        let denied = await processor.process(Array(repeating: request(["visible": true]), count: count), on: connection(mayMutate: false))
        XCTAssertEqual(denied.count, count)
        XCTAssertEqual(Set(denied.map { $0?.error }), ["org.varlink.service.PermissionDenied"])
        let unknown = await processor.process(Array(repeating: request(["visible": true, "tree": "nope"]), count: count), on: connection())
        XCTAssertEqual(Set(unknown.map { $0?.error }), ["io.appstate.NoSuchTree"])
        XCTAssertEqual(keyboard.asked, [])
    }

    @MainActor func testRequestKeyboard_whenOneway_thenAskedAndNothingReplied() async throws {
        let keyboard = RecordingKeyboard()
        let processor = try processor(keyboard: keyboard)
        let replies = start([VarlinkCall(method: RequestKeyboard.name, parameters: ["visible": false], oneway: true)], on: processor)
        XCTAssertEqual(keyboard.asked, [false])
        keyboard.answer(.success(()))
        let answered = await waitFor(replies)
        XCTAssertEqual(answered.count, 1)
        XCTAssertNil(answered[0])
    }
}
