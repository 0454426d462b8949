import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TreeFiles

@testable import AppStateHost
@testable import VarlinkServer

/// Target `dispatch`: calls run through the server's dispatcher and ``RequestProcessor``
/// against a fresh default tree, as the daemon runs them, without a state store.
///
/// The first byte's low bit says whether the peer may mutate; the rest holds NUL-terminated
/// frames, one call each (frames that are not calls are skipped: target `frames` covers
/// them). Invariants: nothing traps; a oneway call gets no reply and any other exactly one;
/// every error is one the interfaces declare; every other reply decodes as its method's
/// reply type; every reply encodes to a frame that decodes back equal; a read answered at
/// once from the published trees (as the event loop does) gets the same bytes; a failed
/// call, a read, and any call from a peer that may not mutate leave every tree as it was.
func fuzz(_ bytes: [UInt8]) {
    guard let flags = bytes.first else { return }
    MainActor.assumeIsolated {
        let host: TreeHost
        do {
            // A manual clock: animated transitions wait for it instead of scheduling tasks
            // that would outlive the input.
            host = try TreeHost(file: defaultTree, clock: ManualClock())
        } catch {
            fatalError("the default tree does not build: \(error)")
        }
        host.makeVisible()
        // Idle steps and front-ends' liveness are timed on a manual clock too, which nothing
        // advances: no timer outlives the input.
        let processor = RequestProcessor(host: host, store: nil, runner: ImmediateRunner(), idleTimer: ClockIdleTimer(ManualClock()))
        let dispatcher = CallDispatcher(
            processors: [processor], info: ServiceInfo(vendor: "fuzz", product: "fuzz", version: "0", url: "-"),
            runner: ImmediateRunner(), metrics: DaemonMetrics())
        let connection = ConnectionContext(
            peer: Peer(pid: 1, uid: 1000, gid: 1000, mayMutate: flags & 1 == 1),
            watcher: ClosedWatcher()
        )
        for frame in bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: true) {
            guard let call = try? VarlinkCall(frame: Array(frame)) else { continue }
            run(call, dispatcher: dispatcher, host: host, on: connection, mayMutate: flags & 1 == 1)
        }
    }
}

/// Decoded once, so that executions spend their time on the input, not on Foundation's JSON
/// decoder.
private let defaultTree: HostedTreeFile = {
    do {
        return try HostedTreeFile.default
    } catch {
        fatalError("the default tree does not decode: \(error)")
    }
}()

@MainActor private func run(
    _ call: VarlinkCall, dispatcher: CallDispatcher, host: TreeHost, on connection: ConnectionContext,
    mayMutate: Bool
) {
    let before = TreeState(host)
    let replies = processSynchronously(call, dispatcher: dispatcher, on: connection)
    require(replies.count == 1, "\(replies.count) replies to one call")
    var immediate: [UInt8] = []
    if dispatcher.answerImmediately(call, into: &immediate) {
        require(immediate == (replies[0]?.encoded ?? []), "\(call) answered differently off the main actor")
    }
    let after = TreeState(host)
    guard let reply = replies[0] else {
        require(call.oneway, "no reply to \(call)")
        return
    }
    require(!call.oneway, "a reply to oneway \(call)")
    checkEncoding(reply)
    if let error = reply.error {
        require(DeclaredReplies.isDeclared(error: error), "undeclared error \(error) for \(call)")
        require(before == after, "failed call \(call) (\(error)) changed the tree")
        return
    }
    DeclaredReplies.check(reply, to: call)
    if MethodRegistry.appState.entry(call.method).map({ !$0.effect.isMutation }) ?? true || !mayMutate {
        require(before == after, "\(call) changed the tree without being a permitted mutation")
    }
}

/// Runs the call to completion now: without a state store nothing in it waits, and the
/// runner runs the main-actor work in the call.
@MainActor private func processSynchronously(_ call: VarlinkCall, dispatcher: CallDispatcher, on connection: ConnectionContext) -> [VarlinkReply?] {
    final class Result: Sendable {
        nonisolated(unsafe) var replies: [VarlinkReply?]?
    }
    let result = Result()
    dispatcher.process([call], on: connection) { result.replies = $0 }
    guard let replies = result.replies else { fatalError("a call waited without a state store") }
    return replies
}

/// Runs main-actor work in the call, on the fuzzer's main thread.
private struct ImmediateRunner: MainActorRunner {
    func execute(_ job: @escaping @MainActor @Sendable () -> Void) {
        MainActor.assumeIsolated(job)
    }

    func executeNowOrSoon(_ job: @escaping @MainActor @Sendable () -> Void) {
        MainActor.assumeIsolated(job)
    }

    func execute(after delay: Duration, _ job: @escaping @MainActor @Sendable () -> Void) {
        fatalError("nothing in a call without a state store waits")
    }
}

private func checkEncoding(_ reply: VarlinkReply) {
    let bytes = reply.encoded
    require(bytes.firstIndex(of: 0) == bytes.count - 1, "reply is not one NUL-terminated frame")
    let decoded = try? VarlinkReply(frame: Array(bytes.dropLast()))
    require(decoded == reply, "reply does not survive encoding: \(String(decoding: bytes, as: UTF8.self))")
}

/// Everything a call could change: each tree's snapshot, window size and keyboard, and the
/// restorable state. (A NaN would make two equal states differ; the reply checks report how
/// one got into a tree.)
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
