import AppStateIPC
import ServicePorts

@testable import AppStateHost

extension RequestProcessor {
    /// Answers a batch and waits for its replies: for tests, whose main queue XCTest serves.
    func process(_ calls: [VarlinkCall], on connection: ConnectionContext) async -> [VarlinkReply?] {
        await withCheckedContinuation { continuation in
            process(calls, on: connection) { continuation.resume(returning: $0) }
        }
    }

    /// Answers a follower's batch and waits for its replies.
    func processFollowed(_ calls: [VarlinkCall]) async -> [VarlinkReply?] {
        await withCheckedContinuation { continuation in
            processFollowed(calls) { continuation.resume(returning: $0) }
        }
    }
}
