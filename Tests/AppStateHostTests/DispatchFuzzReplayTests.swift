import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// Replays the committed inputs of fuzz target `dispatch` — its seeds and any input it found
/// (Fuzz/dispatch/regressions; docs/reliability/fuzzing.md) — with the checks the target makes, so that
/// the suite fails when the dispatcher breaks what the target holds it to, including that a
/// read answered at once from the published trees gets the same bytes as on the main actor.
final class DispatchFuzzReplayTests: AppStateTestCase {
    @MainActor func testCommittedInputs_whenReplayed_thenEveryReplyIsDeclaredAndOnlyPermittedMutationsChangeTheTree() async throws {
        let inputs = try FuzzInputs.committed(to: "dispatch")
        XCTAssertFalse(inputs.isEmpty, "no inputs in Fuzz/dispatch")
        for (name, bytes) in inputs {
            try await replay(bytes, name: name)
        }
    }

    /// What target `dispatch` does with one input, with assertions instead of traps: the
    /// first byte's low bit says whether the peer may mutate, the rest holds NUL-terminated
    /// calls, run against a fresh default tree without a state store.
    @MainActor private func replay(_ bytes: [UInt8], name: String) async throws {
        guard let flags = bytes.first else { return }
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil, idleTimer: ClockIdleTimer(ManualClock()))
        let connection = ConnectionContext(peer: Peer(pid: 1, uid: 1000, gid: 1000, mayMutate: flags & 1 == 1), watcher: ClosedWatcher())
        for frame in bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: true) {
            guard let call = try? VarlinkCall(frame: Array(frame)) else { continue }
            let before = TreeState(host)
            let replies = await processor.process([call], on: connection)
            let after = TreeState(host)
            XCTAssertEqual(replies.count, 1, "\(name): \(call)")
            // A read answered on the event loop must say exactly what the main actor said.
            var immediate: [UInt8] = []
            if processor.answerImmediately(call, into: &immediate) {
                XCTAssertEqual(immediate, replies.first??.encoded ?? [], "\(name): \(call) answered differently off the main actor")
            }
            guard let reply = replies.first ?? nil else {
                XCTAssertTrue(call.oneway, "\(name): no reply to \(call)")
                continue
            }
            XCTAssertFalse(call.oneway, "\(name): a reply to oneway \(call)")
            XCTAssertEqual(try? VarlinkReply(frame: Array(reply.encoded.dropLast())), reply, "\(name): reply does not survive encoding")
            if let error = reply.error {
                XCTAssertTrue(
                    AppStateErrorName(rawValue: error) != nil || VarlinkServiceErrorName(rawValue: error) != nil,
                    "\(name): undeclared error \(error) for \(call)")
                XCTAssertEqual(before, after, "\(name): failed call \(call) (\(error)) changed the tree")
                continue
            }
            assertDeclared(reply, to: call, name: name)
            if MethodRegistry.appState.entry(call.method).map({ !$0.effect.isMutation }) ?? true || flags & 1 == 0 {
                XCTAssertEqual(before, after, "\(name): \(call) changed the tree without being a permitted mutation")
            }
        }
    }

    /// A successful reply decodes as the reply type of the method called, and only a
    /// `Watch` with `more` continues.
    private func assertDeclared(_ reply: VarlinkReply, to call: VarlinkCall, name: String) {
        let declaration: (any VarlinkMethod.Type)? =
            switch call.method {
            case GetInfo.name: GetInfo.self
            case GetInterfaceDescription.name: GetInterfaceDescription.self
            default: AppStateMethod(rawValue: call.method)?.declaration
            }
        guard let declaration else { return XCTFail("\(name): a successful reply to undeclared \(call.method)") }
        XCTAssertEqual(reply.continues, ObjectIdentifier(declaration) == ObjectIdentifier(Watch.self) && call.more, "\(name): \(call)")
        XCTAssertNoThrow(try decode(reply.parameters, as: declaration), "\(name): reply to \(call.method) is not its declared type")
    }

    private func decode<Method: VarlinkMethod>(_ parameters: [String: JSONValue], as method: Method.Type) throws {
        _ = try Method.Reply(parameters: parameters)
    }

    /// Everything a call could change: each tree's snapshot, window size and keyboard, and
    /// the restorable state.
    private struct TreeState: Equatable {
        let trees: [NodeSnapshot]
        let windows: [Size]
        let keyboards: [Rect?]
        let restorable: StateDocument

        @MainActor init(_ host: TreeHost) {
            trees = host.trees.map { host.snapshot(of: $0) }
            windows = host.trees.map(\.window.size)
            keyboards = host.trees.map(\.keyboardFrame)
            restorable = host.restorableState
        }
    }
}
