import ServiceLifecycle

/// Work that runs from its creation until it is stopped, as a service: it is stopped at the
/// group's graceful shutdown (or cancellation).
public struct ShutdownService: Service {
    private let stop: @Sendable () -> Void

    /// Creates the service.
    /// - Parameter stop: Stops the work; called once, at the shutdown.
    public init(stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }

    public func run() async {
        try? await gracefulShutdown()
        stop()
    }
}
