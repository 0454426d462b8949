import AppStateCore
import AppStateIPC
import ServicePorts

@testable import VarlinkServer

/// A processor for the connection tests, whose answers name the call they answer:
///
/// - `test.Read` is answered at once, off the main actor, with `{"read": N}` (N from the
///   call's `n`), as the real processor answers the reads of the published trees.
/// - `test.Watch` with `more` starts a stream: its reply continues, and the calls behind it
///   in the batch are not answered.
/// - Any other call is answered with `{"answered": N}`, or nothing when `oneway`.
///
/// With ``holdsBatches`` set, each batch waits until ``releaseBatch()``, so a test can look at
/// the connection while a batch is with the processor.
@MainActor final class FakeCallProcessor: CallProcessor {
    /// The batches received, in order.
    private(set) var batches: [[VarlinkCall]] = []
    /// The batches answered.
    private(set) var answeredBatches = 0
    /// The connections the batches arrived on.
    private(set) var connections: [ConnectionContext] = []
    var holdsBatches = false
    private var heldBatches: [() -> Void] = []

    nonisolated var interface: VarlinkInterfaceDescription {
        VarlinkInterfaceDescription(name: "test", description: "interface test\nmethod Read(n: ?int) -> (read: ?int)\n")
    }

    func process(_ calls: [VarlinkCall], on connection: ConnectionContext, reply: @escaping @MainActor ([VarlinkReply?]) -> Void) {
        batches.append(calls)
        connections.append(connection)
        let answer = {
            var replies: [VarlinkReply?] = []
            for call in calls {
                if call.method == "test.Watch", call.more {
                    replies.append(VarlinkReply(parameters: ["watching": .bool(true)], continues: true))
                    break
                }
                replies.append(call.oneway ? nil : VarlinkReply(parameters: ["answered": call.parameters["n"] ?? .null]))
            }
            self.answeredBatches += 1
            reply(replies)
        }
        if holdsBatches { heldBatches.append(answer) } else { answer() }
    }

    /// Stops holding batches and lets every held one be answered.
    func releaseAll() {
        holdsBatches = false
        while !heldBatches.isEmpty { releaseBatch() }
    }

    /// Lets the oldest held batch be answered.
    func releaseBatch() {
        guard !heldBatches.isEmpty else { return }
        heldBatches.removeFirst()()
    }

    nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool {
        guard call.method == "test.Read" else { return false }
        if !call.oneway {
            VarlinkReply(parameters: ["read": call.parameters["n"] ?? .null]).encode(into: &buffer)
        }
        return true
    }
}
