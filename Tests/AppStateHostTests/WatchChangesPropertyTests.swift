import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// A client that keeps a copy of the tree and applies each `Watch` reply's changes to it has,
/// after every event, the tree `GetTree` returns: checked over long random sequences of every
/// kind of change, for a watcher of the whole tree and for watchers of subtrees, each sent
/// patches and each sent whole subtrees (`subtrees`).
final class WatchChangesPropertyTests: AppStateTestCase {
    @MainActor func testChanges_whenAppliedAfterEveryEventOfARandomSequence_thenTheCopyIsTheTree() async throws {
        for seed in 1...5 {
            try await run(seed: UInt64(seed), steps: 300)
        }
    }

    @MainActor private func run(seed: UInt64, steps: Int) async throws {
        var random = SeededGenerator(seed: seed)
        let clock = ManualClock()
        let host = try TreeHost(file: HostedTreeFile.default, clock: clock)
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil)
        let mutator = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())
        let followed: [String?] = [nil, "session/home/pages", "session/home/inbox", "session/login"]
        var copies: [(path: String?, lane: RecordingLane, copy: Node)] = []
        for path in followed + followed {
            let lane = RecordingLane()
            let watcher = ConnectionContext(peer: mutator.peer, watcher: RecordingWatcher(lane: lane))
            var parameters: [String: JSONValue] = [:]
            parameters["path"] = path.map(JSONValue.string)
            if copies.count >= followed.count { parameters["subtrees"] = true }
            let first = await processor.process([VarlinkCall(method: Watch.name, parameters: parameters, more: true)], on: watcher)
            let snapshot = try XCTUnwrap(Watch.Reply(parameters: try XCTUnwrap(first.first??.parameters)).root)
            copies.append((path, lane, snapshot))
        }
        for step in 0..<steps {
            if Int.random(in: 0..<6, using: &random) == 0 {
                clock.advance(by: .milliseconds(Int.random(in: 0...400, using: &random)))
            } else {
                _ = await processor.process([Self.randomCall(&random)], on: mutator)
            }
            let tree = try XCTUnwrap(host.trees.first?.root.snapshot())
            for index in copies.indices {
                for reply in try copies[index].lane.takeReplies() {
                    XCTAssertNotNil(reply.event, "seed \(seed), step \(step): a later reply names its event")
                    if let removed = reply.removed, removed == [copies[index].path] { continue }
                    XCTAssertTrue(
                        index < followed.count || reply.patches == nil, "seed \(seed), step \(step): a watcher of subtrees was sent patches")
                    copies[index].copy = try copies[index].copy.applying(reply)
                }
                let expected = copies[index].path.map { tree.node(at: $0) } ?? tree
                guard copies[index].copy == expected else {
                    let difference = expected.map { Self.firstDifference(copies[index].copy, $0) } ?? "the subtree is gone"
                    return XCTFail("seed \(seed), step \(step), following \(copies[index].path ?? "the tree"): the copy differs at \(difference)")
                }
            }
        }
    }

    /// The path of the first node (depth first) that differs, for a short failure message.
    private static func firstDifference(_ copy: Node, _ tree: Node) -> String {
        zip(copy.children, tree.children).first { $0 != $1 }.map { firstDifference($0, $1) } ?? tree.path
    }

    /// A call of one of the mutating methods, with parameters that are sometimes refused.
    private static func randomCall(_ random: inout SeededGenerator) -> VarlinkCall {
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        let duration: JSONValue = pick([0, 0.25])
        let user: JSONValue = .string(pick(["ada", "bob"]))
        let switching: JSONValue = .bool(pick([true, false]))
        let height: JSONValue = .number(pick([0, 120, 300]))
        let index: JSONValue = .number(pick([0, 1, 2, 3]))
        let item: JSONValue = .string(pick(["pages", "inbox", "dashboard", "nowhere"]))
        let destination: JSONValue = .string(pick(["message", "compose"]))
        let width: JSONValue = .number(pick([640, 1280]))
        let windowHeight: JSONValue = .number(pick([480, 800]))
        let notification: JSONValue = .string(pick(["session.didLogIn", "content.didLoad", "content.didFail"]))
        let calls: [(String, [String: JSONValue])] = [
            (Login.name, ["user": user, "switch": switching]),
            (Logout.name, [:]),
            (Lock.name, [:]),
            (Unlock.name, [:]),
            (ShowKeyboard.name, ["height": height, "duration": duration]),
            (HideKeyboard.name, ["duration": duration]),
            (SetPage.name, ["index": index]),
            (SelectMenuItem.name, ["id": item]),
            (Push.name, ["id": destination]),
            (Pop.name, [:]),
            (Resize.name, ["width": width, "height": windowHeight]),
            (Post.name, ["name": notification, "userInfo": .object(["user": "cy"])]),
        ]
        let (method, parameters) = pick(calls)
        return VarlinkCall(method: method, parameters: parameters)
    }
}
