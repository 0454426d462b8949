import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real AF_UNIX datagram socket to pass as `NOTIFY_SOCKET`, as systemd does.
public final class NotifySocket {
    /// The socket's path, for `NOTIFY_SOCKET`.
    public let path: String
    private let fd: Int32

    /// Binds the socket as `notify` in a directory.
    /// - Parameter directory: Where the socket goes.
    /// - Throws: The `POSIXError` of `socket` or `bind`.
    public init(directory: URL) throws {
        path = directory.appendingPathComponent("notify").path
        fd = try unixSocket(SOCK_DGRAM, boundTo: path)
    }

    deinit { close(fd) }

    /// The next datagram, or nil when none arrives within `timeout` seconds.
    public func receive(timeout: Double = 2) -> String? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Waits for a datagram containing `line` (e.g. `READY=1`), returning every datagram seen.
    /// - Parameters:
    ///   - line: The line awaited.
    ///   - timeout: How long to wait at most, in seconds.
    ///   - sender: Whether the sender still runs: once it is gone and has nothing left in the
    ///     queue, nothing more can come, so the wait ends there rather than at `timeout`.
    public func waitFor(_ line: String, timeout: Double = 20, while sender: () -> Bool = { true }) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        var seen: [String] = []
        while Date() < deadline {
            let running = sender()
            // While the sender runs, a short wait at a time, to look at it again.
            guard let message = receive(timeout: running ? min(0.1, deadline.timeIntervalSinceNow) : 0) else {
                if running { continue }
                break
            }
            seen.append(message)
            if message.split(separator: "\n").contains(where: { $0 == line }) { return seen }
        }
        return nil
    }
}
