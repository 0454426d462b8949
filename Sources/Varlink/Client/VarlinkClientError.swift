import Glibc

/// Why a ``VarlinkClient`` could not connect, or lost its connection.
///
/// Error replies from the service are not this type: they are thrown as ``VarlinkError``.
/// The first four kinds happen while connecting and mean the service cannot be reached;
/// the message of ``description`` names the socket and the reason, as a command-line tool
/// should print it.
public struct VarlinkClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a ``VarlinkClientError``, for matching in code.
    public struct Kind: Hashable, Sendable {
        private enum Code: Hashable, Sendable {
            case notFound, permissionDenied, connectionRefused, invalidAddress
            case timedOut, connectionClosed, protocolViolation, invalidReply, busy, systemError
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// The socket does not exist (`ENOENT`, `ENOTDIR`): the service is not running or
        /// listens elsewhere.
        public static let notFound = Kind(.notFound)
        /// The socket exists but this user may not connect to it (`EACCES`, `EPERM`).
        public static let permissionDenied = Kind(.permissionDenied)
        /// The socket exists but nothing listens on it (`ECONNREFUSED`): a stale socket
        /// file, or a service that has stopped.
        public static let connectionRefused = Kind(.connectionRefused)
        /// The address cannot be a Unix socket address (empty, or too long for `sun_path`).
        public static let invalidAddress = Kind(.invalidAddress)
        /// The service did not accept, read or answer within the client's timeout.
        public static let timedOut = Kind(.timedOut)
        /// The connection was closed, by the service or by ``VarlinkClient/close()``.
        public static let connectionClosed = Kind(.connectionClosed)
        /// The service sent something that is not a Varlink reply; the connection is unusable.
        public static let protocolViolation = Kind(.protocolViolation)
        /// The service's reply does not match the method's declared reply type.
        public static let invalidReply = Kind(.invalidReply)
        /// A streaming call has not finished on this connection, so no other call can start.
        public static let busy = Kind(.busy)
        /// Any other failing system call; ``VarlinkClientError/errorNumber`` has its `errno`.
        public static let systemError = Kind(.systemError)
    }

    /// What went wrong.
    public let kind: Kind
    /// The socket address the client was using.
    public let socketPath: String
    /// The `errno` of the failing system call, when one failed.
    public let errorNumber: Int32?
    /// More about the failure, e.g. the protocol violation or the failing operation.
    public let detail: String?

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - socketPath: The socket address the client was using.
    ///   - errorNumber: The `errno` of the failing system call.
    ///   - detail: More about the failure.
    public init(_ kind: Kind, socketPath: String, errorNumber: Int32? = nil, detail: String? = nil) {
        self.kind = kind
        self.socketPath = socketPath
        self.errorNumber = errorNumber
        self.detail = detail
    }

    /// The error for a failed `connect(2)`, classified by its `errno`.
    /// - Parameters:
    ///   - errorNumber: The `errno` that `connect` set.
    ///   - socketPath: The socket address.
    public init(connectErrorNumber errorNumber: Int32, socketPath: String) {
        let kind: Kind
        switch errorNumber {
        case ENOENT, ENOTDIR: kind = .notFound
        case EACCES, EPERM: kind = .permissionDenied
        case ECONNREFUSED: kind = .connectionRefused
        case EAGAIN, EINPROGRESS, ETIMEDOUT: kind = .timedOut
        default: kind = .systemError
        }
        self.init(kind, socketPath: socketPath, errorNumber: errorNumber, detail: "connect")
    }

    /// Whether the service could not be reached at all (as opposed to failing mid-call),
    /// which command-line tools report with exit status 69 (`EX_UNAVAILABLE`).
    public var isUnreachable: Bool {
        switch kind {
        case .notFound, .permissionDenied, .connectionRefused, .invalidAddress: true
        default: detail == "connect"
        }
    }

    /// The failure in words, naming the socket, e.g.
    /// `cannot connect to /run/org.example.ping: no such socket (is the service running?)`.
    public var description: String {
        let reason = errorNumber.map { String(cString: strerror($0)) } ?? ""
        switch kind {
        case .notFound: return "cannot connect to \(socketPath): no such socket (is the service running?)"
        case .permissionDenied: return "cannot connect to \(socketPath): permission denied"
        case .connectionRefused: return "cannot connect to \(socketPath): connection refused (nothing is listening)"
        case .invalidAddress: return "cannot connect to \(socketPath): \(detail ?? "invalid socket address")"
        case .timedOut: return "\(socketPath): timed out\(detail.map { " (\($0))" } ?? "")"
        case .connectionClosed: return "\(socketPath): the connection was closed"
        case .protocolViolation: return "\(socketPath): malformed reply: \(detail ?? "")"
        case .invalidReply: return "\(socketPath): unexpected reply: \(detail ?? "")"
        case .busy: return "\(socketPath): a streaming call is still running on this connection"
        default: return "\(socketPath): \(detail ?? "system call") failed: \(reason)"
        }
    }
}
