import AppStateCore
import Synchronization

/// The reply to one command sent with ``DevToolsConnection/send(_:_:session:)``, to be
/// awaited later: commands sent one after another are answered in order without waiting for
/// each reply, which keeps a screen change to one round trip.
public final class DevToolsReply: Sendable {
    private enum State {
        case waiting([CheckedContinuation<[String: JSONValue], any Error>])
        case settled(Result<[String: JSONValue], DevToolsError>)
    }

    private let state = Mutex(State.waiting([]))

    init() {}

    /// The command's result.
    /// - Throws: ``DevToolsError`` for an error reply or a closed pipe.
    public var value: [String: JSONValue] {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let settled: Result<[String: JSONValue], DevToolsError>? = state.withLock { state in
                    switch state {
                    case .waiting(var waiters):
                        waiters.append(continuation)
                        state = .waiting(waiters)
                        return nil
                    case .settled(let result):
                        return result
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }

    /// Settles the reply; later settlements are ignored.
    func settle(_ result: Result<[String: JSONValue], DevToolsError>) {
        let waiters: [CheckedContinuation<[String: JSONValue], any Error>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .settled(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
