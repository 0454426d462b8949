import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A plain Unix socket connection for sending hand-written Varlink frames, byte for byte.
final class RawConnection {
    private let fd: Int32

    init(path: String) throws {
        fd = try unixSocket(connectedTo: path)
    }

    deinit { close(fd) }

    /// Sends bytes as they are.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Sends a text followed by the NUL terminator.
    func send(frame text: String) {
        send(Array(text.utf8) + [0])
    }

    /// Reads until `count` NUL-terminated frames arrived, the peer closed, or `timeout` passed.
    /// - Returns: The frames received (as JSON objects) and whether the peer closed the connection.
    func receive(frames count: Int, timeout: Double = 10) -> (frames: [[String: Any]], closed: Bool) {
        let (texts, closed) = receiveText(frames: count, timeout: timeout)
        let frames = texts.map { text in
            (try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any]) ?? ["unparsable": String(decoding: text, as: UTF8.self)]
        }
        return (frames, closed)
    }

    /// Reads until `count` NUL-terminated frames arrived, the peer closed, or `timeout` passed.
    /// - Returns: The frames received, as the bytes before each NUL, and whether the peer closed
    ///   the connection.
    func receiveText(frames count: Int, timeout: Double = 10) -> (frames: [[UInt8]], closed: Bool) {
        var buffer: [UInt8] = []
        var frames: [[UInt8]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while frames.count < count {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return (frames, false) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(remaining * 1000)) == 1 else { return (frames, false) }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let received = recv(fd, &chunk, chunk.count, 0)
            if received <= 0 { return (frames, true) }
            buffer.append(contentsOf: chunk[0..<received])
            while let end = buffer.firstIndex(of: 0) {
                frames.append(Array(buffer[..<end]))
                buffer.removeSubrange(...end)
            }
        }
        return (frames, false)
    }

    /// Whether the peer closed the connection within `timeout` seconds (reading and discarding data).
    func isClosedByPeer(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(deadline.timeIntervalSinceNow * 1000)) == 1 else { return false }
            var chunk = [UInt8](repeating: 0, count: 65536)
            if recv(fd, &chunk, chunk.count, 0) <= 0 { return true }
        }
        return false
    }
}
