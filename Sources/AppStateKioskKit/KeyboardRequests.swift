import AppStateIPC

/// The daemon asked for the on-screen keyboard, one request after another on a task of its
/// own, so that the supervisor never waits for the daemon and the requests keep their order.
final class KeyboardRequests: Sendable {
    private let requests: AsyncStream<Bool>.Continuation

    /// Starts the task that sends the requests.
    /// - Parameters:
    ///   - configuration: The daemon's socket and the tree.
    ///   - log: Where failed requests go.
    init(configuration: KioskConfiguration, log: KioskLog) {
        let (stream, requests) = AsyncStream<Bool>.makeStream()
        self.requests = requests
        Task {
            for await visible in stream {
                do {
                    let client = try VarlinkClient(path: configuration.socketPath, timeout: .seconds(5))
                    _ = try await client.call(RequestKeyboard.self, RequestKeyboard.Parameters(tree: configuration.tree, visible: visible))
                } catch {
                    log.warn("cannot \(visible ? "show" : "hide") the on-screen keyboard: \(error)")
                }
            }
        }
    }

    deinit { requests.finish() }

    /// Asks for the keyboard to be shown or hidden.
    /// - Parameter visible: Whether it should be shown.
    func request(visible: Bool) {
        requests.yield(visible)
    }
}
