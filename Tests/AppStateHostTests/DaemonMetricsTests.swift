import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// The counting behind `GetMetrics`, in process: each client's call by method and outcome,
/// whichever thread answers it, and label values only from the interface's closed sets.
final class DaemonMetricsTests: AppStateTestCase {
    private let root = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

    @MainActor private func processor(_ metrics: DaemonMetrics) throws -> RequestProcessor {
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        return RequestProcessor(host: host, store: nil, metrics: metrics)
    }

    private func call(_ text: String) throws -> VarlinkCall {
        try VarlinkCall(frame: Array(text.utf8))
    }

    /// The exposition's sample lines, without the TYPE lines.
    private func samples(_ metrics: DaemonMetrics) -> Set<String> {
        Set(metrics.exposition(connections: 0, watchers: 0).split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
    }

    @MainActor func testProcess_whenCallsSucceedAndFail_thenCountsEachByMethodAndOutcome() async throws {
        let metrics = DaemonMetrics()
        let processor = try processor(metrics)
        let replies = await processor.process(
            [
                try call(#"{"method":"io.appstate.Login","parameters":{"user":"ada"}}"#),
                try call(#"{"method":"io.appstate.GetCurrent","parameters":{"path":"nope"}}"#),
                try call(#"{"method":"io.appstate.Login","parameters":{"user":"ada"},"oneway":true}"#),
                try call(#"{"method":"io.appstate.Nope"}"#),
            ], on: root)
        XCTAssertEqual(replies.map { $0?.error }, [nil, "io.appstate.NoSuchNode", nil, "org.varlink.service.MethodNotFound"])
        var buffer: [UInt8] = []
        XCTAssertTrue(processor.answerImmediately(try call(#"{"method":"io.appstate.GetTree"}"#), into: &buffer))
        XCTAssertTrue(processor.answerImmediately(try call(#"{"method":"io.appstate.GetTree","parameters":{"tree":"nope"}}"#), into: &buffer))

        let lines = samples(metrics)
        for expected in [
            #"appstate_requests_total{method="io.appstate.Login",outcome="ok"} 2"#,
            #"appstate_requests_total{method="io.appstate.GetCurrent",outcome="io.appstate.NoSuchNode"} 1"#,
            #"appstate_requests_total{method="undeclared",outcome="org.varlink.service.MethodNotFound"} 1"#,
            #"appstate_requests_total{method="io.appstate.GetTree",outcome="ok"} 1"#,
            #"appstate_requests_total{method="io.appstate.GetTree",outcome="io.appstate.NoSuchTree"} 1"#,
            #"appstate_errors_total{error="io.appstate.NoSuchNode"} 1"#,
            #"appstate_errors_total{error="org.varlink.service.MethodNotFound"} 1"#,
            #"appstate_errors_total{error="io.appstate.NoSuchTree"} 1"#,
        ] {
            XCTAssertTrue(lines.contains(expected), "no \(expected) in:\n\(lines.sorted().joined(separator: "\n"))")
        }
        XCTAssertFalse(lines.contains { $0.contains("io.appstate.Nope") }, "a client's method name became a label")
    }

    @MainActor func testProcess_whenTheCommitIsRefused_thenTheDurableChangesCountAsStorageFailureOnewayIncluded() async throws {
        let metrics = DaemonMetrics()
        let directory = try TemporaryDirectory()
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        // A session start that is not a finite number cannot be written as JSON.
        try host.restore(
            StateDocument(trees: [
                "default": RestorationDocument(controllers: ["session": ["user": "ada", "since": .number(.nan)]])
            ]))
        let processor = RequestProcessor(host: host, store: StateStore(directory: directory.path), metrics: metrics)
        let replies = await processor.process(
            [
                try call(#"{"method":"io.appstate.SetPage","parameters":{"index":1},"oneway":true}"#),
                try call(#"{"method":"io.appstate.SetPage","parameters":{"index":2}}"#),
            ], on: root)
        XCTAssertEqual(replies.map { $0?.error }, [nil, "io.appstate.StorageFailure"])
        let lines = samples(metrics)
        XCTAssertTrue(
            lines.contains(#"appstate_requests_total{method="io.appstate.SetPage",outcome="io.appstate.StorageFailure"} 2"#),
            lines.sorted().joined(separator: "\n"))
        XCTAssertTrue(lines.contains(#"appstate_requests_total{method="io.appstate.SetPage",outcome="ok"} 0"#))
    }

    @MainActor func testGetMetrics_whenCalled_thenReportsTheCallsBeforeItAndTheWatchers() async throws {
        let metrics = DaemonMetrics()
        let processor = try processor(metrics)
        let replies = await processor.process(
            [
                try call(#"{"method":"io.appstate.Logout"}"#),
                try call(#"{"method":"io.appstate.GetMetrics"}"#),
            ], on: root)
        let text = try GetMetrics.Reply(parameters: try XCTUnwrap(replies.last??.parameters)).text
        XCTAssertTrue(
            text.contains(#"appstate_requests_total{method="io.appstate.Logout",outcome="ok"} 0"#),
            "the batch's calls are counted once it is answered:\n\(text)")
        XCTAssertTrue(text.contains(#"appstate_requests_total{method="io.appstate.GetMetrics",outcome="ok"} 0"#), text)
        XCTAssertTrue(text.contains("# TYPE appstate_watchers gauge\nappstate_watchers 0.0\n"), text)
        XCTAssertTrue(samples(metrics).contains(#"appstate_requests_total{method="io.appstate.GetMetrics",outcome="ok"} 1"#))
    }

    @MainActor func testProcessFollowed_whenALoginIsFollowed_thenNoClientCallIsCounted() async throws {
        let metrics = DaemonMetrics()
        let processor = try processor(metrics)
        let replies = await processor.processFollowed([try call(#"{"method":"io.appstate.Login","parameters":{"user":"ada"}}"#)])
        XCTAssertNil(replies.first??.error)
        XCTAssertTrue(samples(metrics).contains(#"appstate_requests_total{method="io.appstate.Login",outcome="ok"} 0"#))
    }

    func testCountError_whenTheNameIsNotDeclared_thenItIsCountedAsUndeclared() {
        let metrics = DaemonMetrics()
        metrics.countConnectionError("com.example.Made.Up")
        metrics.countConnectionError(VarlinkError.tooManyConnections(limit: 1).name)
        let lines = samples(metrics)
        XCTAssertTrue(lines.contains(#"appstate_errors_total{error="undeclared"} 1"#), "\(lines)")
        XCTAssertTrue(lines.contains(#"appstate_errors_total{error="io.appstate.TooManyConnections"} 1"#), "\(lines)")
    }

    func testRecordWrite_whenCommitsShareAWrite_thenTheBatchSizeIsObserved() {
        let metrics = DaemonMetrics()
        metrics.recordWrite(commits: 3)
        metrics.recordWrite(commits: 1)
        let lines = samples(metrics)
        XCTAssertTrue(lines.contains("appstate_commit_batch_size_count 2"), "\(lines)")
        XCTAssertTrue(lines.contains("appstate_commit_batch_size_sum 4.0"), "\(lines)")
        XCTAssertTrue(lines.contains(#"appstate_commit_batch_size_bucket{le="2.0"} 1"#), "\(lines)")
    }
}
