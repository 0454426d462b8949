/// A failure to set up the daemon's socket.
public struct ServerError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case alreadyRunning
        case socketSetup
    }

    private let code: Code
    /// What failed, naming the socket path and the reason.
    public let description: String

    /// Another daemon answers on the socket path.
    public static func alreadyRunning(_ path: String) -> ServerError {
        ServerError(code: .alreadyRunning, description: "another appstated is already listening on \(path)")
    }

    /// The socket could not be prepared.
    public static func socketSetup(_ path: String, _ reason: String) -> ServerError {
        ServerError(code: .socketSetup, description: "cannot listen on \(path): \(reason)")
    }
}
