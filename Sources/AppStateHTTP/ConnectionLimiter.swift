import NIOConcurrencyHelpers
import NIOCore

/// Counts a server's open connections and turns away those beyond the limit with a 503, so
/// that the server's memory and descriptors stay bounded however many clients connect.
final class ConnectionLimiter: Sendable {
    private let maximum: Int
    private let count = NIOLockedValueBox(0)

    /// What a connection beyond the limit is told before it is closed.
    private static let refusal = ByteBuffer(
        string: "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Admits a new connection, or answers it 503 and closes it.
    /// - Parameter channel: The accepted connection.
    /// - Returns: Whether it is admitted; it is counted until it closes.
    func admit(_ channel: any Channel) -> Bool {
        let admitted = count.withLockedValue { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
        guard admitted else {
            channel.writeAndFlush(Self.refusal).whenComplete { _ in channel.close(promise: nil) }
            return false
        }
        channel.closeFuture.whenComplete { [self] _ in count.withLockedValue { $0 -= 1 } }
        return true
    }
}
