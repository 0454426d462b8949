import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real AF_UNIX datagram socket to pass as `NOTIFY_SOCKET`, as systemd does.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(directory: URL) throws {
        path = directory.appendingPathComponent("notify").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(fd) }

    /// The next datagram, or nil when none arrives within `timeout` seconds.
    func receive(timeout: Double) -> String? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Waits for a datagram containing `line` (e.g. `READY=1`), returning every datagram seen.
    func waitFor(_ line: String, timeout: Double = 20) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        var seen: [String] = []
        while Date() < deadline {
            guard let message = receive(timeout: deadline.timeIntervalSinceNow) else { break }
            seen.append(message)
            if message.split(separator: "\n").contains(where: { $0 == line }) { return seen }
        }
        return nil
    }
}
