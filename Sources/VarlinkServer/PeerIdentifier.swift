import NIOCore
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// How a new connection learns who is at the other end, once, when it is accepted.
struct PeerIdentifier: Sendable {
    /// Finds the peer of a connection, on the connection's event loop.
    let identify: @Sendable (any Channel) -> EventLoopFuture<Peer>

    /// `struct ucred` of `<sys/socket.h>`, which Glibc's Swift module does not declare:
    /// three 32-bit fields, laid out alike in C and Swift.
    private struct SocketCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// Identifies peers by the socket's `SO_PEERCRED`: the credentials of the process that
    /// connected, whatever it did since.
    /// - Parameter access: The access control, asked when the peer first mutates.
    /// - Returns: The identifier the server uses.
    static func socketCredentials(access: any MutationAccess) -> PeerIdentifier {
        PeerIdentifier { channel in
            guard let provider = channel as? any SocketOptionProvider else {
                return channel.eventLoop.makeFailedFuture(ServerError.peerUnknown("the connection is not a socket with peer credentials"))
            }
            let credentials: EventLoopFuture<SocketCredentials> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET),
                name: SocketOptionName(SO_PEERCRED)
            )
            return credentials.map { credentials in
                Peer(
                    pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
                    access: PeerAccessDecision(access: access, pid: credentials.pid, uid: credentials.uid, gid: credentials.gid))
            }
        }
    }
}
