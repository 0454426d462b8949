import AppStateHTTP
import ServiceLifecycle

/// An ``HTTPServer`` as a service: it serves from the start, and at the group's graceful
/// shutdown (or cancellation) stops listening and ends its event streams, which returns once
/// their connections have closed.
public struct HTTPServerService: Service {
    /// The server, already listening.
    public let server: HTTPServer
    private let onRun: @Sendable () -> Void

    /// Creates the service.
    /// - Parameters:
    ///   - server: The server, already listening.
    ///   - onRun: Called when the service starts, such as to print where the server listens.
    ///     A group traps its shutdown signals before it starts its services, so whoever
    ///     is told then may stop the process gracefully at once.
    public init(server: HTTPServer, onRun: @escaping @Sendable () -> Void = {}) {
        self.server = server
        self.onRun = onRun
    }

    public func run() async {
        onRun()
        try? await gracefulShutdown()
        await server.shutdown()
    }
}
