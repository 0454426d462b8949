import Foundation
import Logging
import UnixSignals
import Varlink
import VarlinkCertification
import VarlinkServer

/// The two ways the program runs: the service on the Varlink library's server (its framing,
/// connections and dispatch, on the event loop of the main thread), or the client on
/// ``VarlinkClient``.
enum CertificationRun {
    /// Serves the certification until SIGTERM or SIGINT.
    /// - Parameter path: The socket's path.
    /// - Throws: `ServerError` when the socket cannot be set up.
    static func service(at path: String) throws {
        let logger = Logger(label: "appstate-varlink-certification")
        try MainThreadEventLoop.run { eventLoop, runner in
            let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
            let server = VarlinkServer(
                endpoint: .path(path, mode: 0o600, group: nil), eventLoops: eventLoop, processors: [CertificationProcessor()],
                configuration: .init(
                    info: ServiceInfo(
                        vendor: "appstate", product: "appstate-varlink-certification", version: "1", url: "https://varlink.org"),
                    // The interface declares no errors about connections: such a connection is closed.
                    errors: ConnectionErrors()),
                runner: runner, access: ReadOnlyAccess(), metrics: UncountedMetrics(), logger: logger)
            let listener = try await server.listen()
            FileHandle.standardOutput.write(Data("Listening on unix:\(path)\n".utf8))
            for await _ in signals { break }
            await listener.drain()
        }
    }

    /// Certifies the service at `path`, printing each step.
    /// - Parameter path: The service's socket.
    /// - Throws: What failed: a reply that differs, an error reply, the connection.
    static func client(of path: String) throws {
        let client = try VarlinkClient(path: path)
        defer { client.close() }
        for line in try CertificationClient.run(on: client) { print(line) }
        print("Certification passed")
    }
}
