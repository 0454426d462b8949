import AppStateHTTP
import ServiceLifecycle

/// An ``HTTPServer`` as a service: it serves from the start, and at the group's graceful
/// shutdown (or cancellation) stops listening and ends its event streams, which returns once
/// their connections have closed.
public struct HTTPServerService: Service {
    /// The server, already listening.
    public let server: HTTPServer

    /// Creates the service.
    /// - Parameter server: The server, already listening.
    public init(server: HTTPServer) {
        self.server = server
    }

    public func run() async {
        try? await gracefulShutdown()
        await server.shutdown()
    }
}
