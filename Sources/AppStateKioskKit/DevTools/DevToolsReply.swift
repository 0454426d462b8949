import AppStateCore
import Synchronization

/// The reply to one command sent with ``DevToolsConnection/send(_:_:session:)``, to be
/// awaited later: commands sent one after another are answered in order without waiting for
/// each reply, which keeps a screen change to one round trip.
public final class DevToolsReply: Sendable {
    private typealias Waiter = CheckedContinuation<[String: JSONValue], any Error>

    private enum State {
        case waiting([Int: Waiter], next: Int)
        case settled(Result<[String: JSONValue], DevToolsError>)
    }

    private let state = Mutex(State.waiting([:], next: 0))

    init() {}

    /// The command's result. A task cancelled while it waits stops waiting with
    /// `CancellationError`: a hung page's reply may never come.
    /// - Throws: ``DevToolsError`` for an error reply or a closed pipe; `CancellationError`.
    public var value: [String: JSONValue] {
        get async throws {
            let ticket = Mutex(Ticket.unregistered)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: Waiter) in
                    let settled: Result<[String: JSONValue], any Error>? = state.withLock { state in
                        switch state {
                        case .waiting(var waiters, let next):
                            let cancelled = ticket.withLock { ticket in
                                if case .cancelled = ticket { return true }
                                ticket = .registered(next)
                                return false
                            }
                            if cancelled { return .failure(CancellationError()) }
                            waiters[next] = continuation
                            state = .waiting(waiters, next: next + 1)
                            return nil
                        case .settled(let result):
                            return result.mapError { $0 }
                        }
                    }
                    if let settled { continuation.resume(with: settled) }
                }
            } onCancel: {
                // Under the same locks, in the same order, as the registration: a cancellation
                // that comes first leaves the waiter to give up as it registers.
                let waiter: Waiter? = state.withLock { state in
                    let key: Int? = ticket.withLock { ticket in
                        defer { ticket = .cancelled }
                        if case .registered(let key) = ticket { return key }
                        return nil
                    }
                    guard case .waiting(var waiters, let next) = state, let key else { return nil }
                    defer { state = .waiting(waiters, next: next) }
                    return waiters.removeValue(forKey: key)
                }
                waiter?.resume(throwing: CancellationError())
            }
        }
    }

    private enum Ticket {
        case unregistered
        case registered(Int)
        case cancelled
    }

    /// Settles the reply; later settlements are ignored.
    func settle(_ result: Result<[String: JSONValue], DevToolsError>) {
        let waiters: [Waiter] = state.withLock { state in
            guard case .waiting(let waiters, _) = state else { return [] }
            state = .settled(result)
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
