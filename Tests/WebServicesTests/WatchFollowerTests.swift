import AppStateCore
import AppStateIPC
import AppStateWebServices
import Foundation
import TestSupport
import XCTest

/// The web front-ends' one Watch follower, against the real daemon: every reply with the whole
/// tree after it, the loss of the daemon, and following it again once it is back.
final class WatchFollowerTests: AppStateTestCase {
    /// What a follower reported, for a test to wait on without sleeping.
    private final class Updates: @unchecked Sendable {
        private let condition = NSCondition()
        private var updates: [WatchFollower.Update] = []

        func append(_ update: WatchFollower.Update) {
            condition.lock()
            updates.append(update)
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until an update after the first `start` satisfies `matches`.
        /// - Returns: Its index.
        func wait(_ what: String, after start: Int = 0, _ matches: (WatchFollower.Update) -> Bool) throws -> (Int, WatchFollower.Update) {
            let deadline = Date().addingTimeInterval(15)
            condition.lock()
            defer { condition.unlock() }
            var index = start
            while true {
                while index < updates.count {
                    if matches(updates[index]) { return (index, updates[index]) }
                    index += 1
                }
                guard condition.wait(until: deadline) else { throw TestFailure("\(what) was not reported; got \(updates)") }
            }
        }
    }

    func testBackoff_whenAttemptsFail_thenDoublesFromTheFirstDelayToTheCapAndStartsAgainOnReset() {
        var backoff = ReconnectBackoff(first: .milliseconds(50), maximum: .seconds(1))
        let delays = (0..<7).map { _ in backoff.nextDelay() }
        XCTAssertEqual(delays, [50, 100, 200, 400, 800, 1_000, 1_000].map { Duration.milliseconds($0) })
        backoff.reset()
        XCTAssertEqual(backoff.nextDelay(), .milliseconds(50))
        var flat = ReconnectBackoff(first: .seconds(2), maximum: .seconds(1))
        XCTAssertEqual([flat.nextDelay(), flat.nextDelay()], [.seconds(2), .seconds(2)], "the cap is never below the first delay")
    }

    func testFollow_whenTheDaemonChangesStopsAndComesBack_thenReportsEachTreeTheLossAndANewSnapshot() throws {
        let daemon = try TestDaemon(executable: URL(fileURLWithPath: try TestPaths.productsDirectory + "/appstated"))
        let updates = Updates()
        let follower = WatchFollower(socketPath: daemon.socketPath) { updates.append($0) }
        follower.start()
        defer { follower.stop() }
        let (connected, _) = try updates.wait("the connection") { if case .connected = $0 { true } else { false } }
        let (first, snapshot) = try updates.wait("the snapshot", after: connected) {
            if case .reply(let reply, _) = $0 { reply.root != nil } else { false }
        }
        _ = try VarlinkClient(path: daemon.socketPath).call(method: ShowKeyboard.name, parameters: ["height": 320, "duration": 0])
        let (_, change) = try updates.wait("the change", after: first + 1) { if case .reply = $0 { true } else { false } }
        guard case .reply(let reply, let tree) = change, case .reply(_, let before) = snapshot else { return XCTFail("\(change)") }
        XCTAssertNil(reply.root, "a change, not a snapshot")
        XCTAssertNotEqual(tree, before)
        XCTAssertEqual(
            JSONValue.object(tree.parameters), try VarlinkClient(path: daemon.socketPath).call(method: GetTree.name)["root"],
            "the follower's tree is the daemon's after the change")

        XCTAssertEqual(daemon.stop(), 0)
        let (lost, _) = try updates.wait("the loss") { if case .disconnected = $0 { true } else { false } }
        try daemon.restart()
        let (again, _) = try updates.wait("the new connection", after: lost) { if case .connected = $0 { true } else { false } }
        _ = try updates.wait("the new snapshot", after: again) { if case .reply(let reply, _) = $0 { reply.root != nil } else { false } }
    }
}
