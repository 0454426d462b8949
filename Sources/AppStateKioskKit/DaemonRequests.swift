import AppStateIPC

/// Calls of the daemon that appstate-kiosk makes on its own account (the keyboard asked for,
/// its state reported), one after another on a task of their own, so that the supervisor never
/// waits for the daemon and the calls keep their order.
final class DaemonRequests: Sendable {
    private enum Request: Sendable {
        case call(method: String, parameters: [String: JSONValue], failure: String)
        case flush(CheckedContinuation<Void, Never>)
    }

    private let requests: AsyncStream<Request>.Continuation

    /// Starts the task that makes the calls.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - log: Where failed calls go, each failure once until a call succeeds again.
    init(socketPath: String, log: KioskLog) {
        let (stream, requests) = AsyncStream<Request>.makeStream()
        self.requests = requests
        Task {
            var failing: String?
            for await request in stream {
                guard case .call(let method, let parameters, let failure) = request else {
                    if case .flush(let done) = request { done.resume() }
                    continue
                }
                do {
                    let client = try VarlinkClient(path: socketPath, timeout: .seconds(5))
                    _ = try await client.call(method: method, parameters: parameters)
                    failing = nil
                } catch {
                    let message = "\(failure): \(error)"
                    if message != failing { log.warn(message) }
                    failing = message
                }
            }
        }
    }

    deinit { requests.finish() }

    /// Calls a method of the daemon, in turn.
    /// - Parameters:
    ///   - method: The method.
    ///   - parameters: Its parameters.
    ///   - failure: What failed, in words, for the log.
    func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters, failure: String) {
        requests.yield(.call(method: Method.name, parameters: parameters.parameters, failure: failure))
    }

    /// Waits until every call made before has been made, as before the process exits.
    func flush() async {
        await withCheckedContinuation { requests.yield(.flush($0)) }
    }
}
