/// A failure to set up a server's socket, or to learn who is at the other end of a
/// connection.
public struct ServerError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case alreadyRunning
        case socketSetup
        case peerUnknown
    }

    private let code: Code
    /// What failed, naming the socket path and the reason.
    public let description: String

    /// Another daemon answers on the socket path.
    public static func alreadyRunning(_ path: String) -> ServerError {
        ServerError(code: .alreadyRunning, description: "another server is already listening on \(path)")
    }

    /// The socket could not be prepared.
    public static func socketSetup(_ path: String, _ reason: String) -> ServerError {
        ServerError(code: .socketSetup, description: "cannot listen on \(path): \(reason)")
    }

    /// The peer of a connection cannot be identified.
    public static func peerUnknown(_ reason: String) -> ServerError {
        ServerError(code: .peerUnknown, description: "cannot identify the peer: \(reason)")
    }
}
