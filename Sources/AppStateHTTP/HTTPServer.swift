import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 server for the daemon's front-ends: listens on each endpoint, reads each
/// request whole within ``HTTPServerLimits``, and lets an ``HTTPResponder`` answer it.
///
/// Malformed requests are answered 400 by NIO's HTTP decoder; pipelined requests are answered
/// in order. Every response carries the server's default header fields.
public final class HTTPServer: Sendable {
    /// What each listening socket is bound to, in the order of the endpoints.
    public let addresses: [HTTPListenerAddress]

    private let channels: [any Channel]
    private let openStreams = OpenEventStreams()

    /// Binds every endpoint and starts serving.
    /// - Parameters:
    ///   - endpoints: Where to listen; at least one.
    ///   - limits: The bounds on requests, connections and event streams.
    ///   - headers: Header fields every response carries.
    ///   - group: The event loops to serve on.
    ///   - responder: What answers the requests.
    /// - Throws: ``HTTPServerError`` when an endpoint cannot be bound; the others are closed.
    public init(
        endpoints: [HTTPEndpoint], limits: HTTPServerLimits = HTTPServerLimits(), headers: [(name: String, value: String)] = [],
        group: any EventLoopGroup, responder: any HTTPResponder
    ) throws {
        let limiter = ConnectionLimiter(maximum: limits.maximumConnections)
        let openStreams = openStreams
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: Int32(limits.backlog))
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard limiter.admit(channel) else { return channel.eventLoop.makeSucceededVoidFuture() }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        HTTPRequestHandler(responder: responder, limits: limits, defaultHeaders: headers, openStreams: openStreams))
                }
            }
        var channels: [any Channel] = []
        do {
            for endpoint in endpoints {
                channels.append(try Self.bind(bootstrap, to: endpoint, backlog: limits.backlog))
            }
        } catch {
            for channel in channels { channel.close(promise: nil) }
            throw error
        }
        self.channels = channels
        addresses = channels.map { channel in
            switch channel.localAddress {
            case .unixDomainSocket?: .unixSocket(path: channel.localAddress?.pathname ?? "")
            case let address?: .tcp(host: address.ipAddress ?? "", port: address.port ?? 0)
            case nil: .unixSocket(path: "")
            }
        }
    }

    private static func bind(_ bootstrap: ServerBootstrap, to endpoint: HTTPEndpoint, backlog: Int) throws -> any Channel {
        switch endpoint {
        case .tcp(let address):
            do {
                return try bootstrap.bind(host: address.host, port: address.port).wait()
            } catch {
                throw HTTPServerError("cannot listen on \(address.urlHost):\(address.port): \(error)")
            }
        case .unixSocket(let path):
            try UnixSocketPath.prepare(path)
            do {
                return try bootstrap.bind(unixDomainSocketPath: path).wait()
            } catch {
                throw HTTPServerError("cannot listen on \(path): \(error)")
            }
        case .descriptor(let descriptor):
            // A passed socket may be blocking; accepting must not wait.
            guard fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) == 0 else {
                throw HTTPServerError("cannot use the passed descriptor \(descriptor): \(String(cString: strerror(errno)))")
            }
            let channel: any Channel
            do {
                channel = try bootstrap.withBoundSocket(descriptor).wait()
            } catch {
                throw HTTPServerError("cannot serve the passed descriptor \(descriptor): \(error)")
            }
            // NIO listens again on a socket it is given, with its own backlog, whatever the
            // socket unit asked for; listening once more restores the configured one.
            Glibc.listen(descriptor, Int32(backlog))
            return channel
        }
    }

    /// Stops listening; connections already open are served until they close.
    public func close() {
        for channel in channels { channel.close(promise: nil) }
    }

    /// Shuts down gracefully: stops listening, then ends every event stream (each client reads
    /// the end of its response) and waits until their connections have closed. Other requests
    /// on connections already open are still answered.
    public func shutdown() async {
        for channel in channels { try? await channel.close() }
        for closed in openStreams.endAll() { try? await closed.get() }
    }
}
