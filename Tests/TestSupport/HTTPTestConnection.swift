import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 connection written and read byte by byte, for tests of HTTP servers that
/// need what a library client hides: exact requests (malformed, oversized, pipelined), the
/// server closing the connection, and event streams read one event at a time or not at all.
public final class HTTPTestConnection {
    /// One response: status, header fields (names in lowercase), body.
    public struct Response {
        /// The status code.
        public var status: Int
        /// The header fields, names in lowercase, in order.
        public var headers: [(name: String, value: String)]
        /// The body.
        public var body: [UInt8]

        /// The first value of a header field.
        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        /// The body as text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One Server-Sent Event, as a client dispatches it.
    public struct Event {
        /// `event:`; `message` when absent.
        public var name: String
        /// `id:`, when it has one.
        public var id: String?
        /// `data:`, lines joined.
        public var data: String
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Whether the body being read comes in chunks (`Transfer-Encoding: chunked`), as an
    /// event stream does.
    private var chunked = false
    /// Bytes read from the socket and not yet taken out of their chunks.
    private var raw: [UInt8] = []

    /// Connects to `127.0.0.1` (or another IPv4 address) at `port`.
    /// - Parameters:
    ///   - host: The IPv4 address.
    ///   - port: The port.
    ///   - receiveBuffer: `SO_RCVBUF` to set before connecting, for a client that reads slowly.
    public init(host: String = "127.0.0.1", port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let number = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: number) ?? .EIO)
        }
    }

    /// Connects to a Unix socket.
    /// - Parameter unixSocket: The socket's path.
    public init(unixSocket: String) throws {
        descriptor = try TestSupport.unixSocket(connectedTo: unixSocket)
    }

    deinit {
        close(descriptor)
    }

    /// Sends bytes as they are.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += count
        }
    }

    /// Sends a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The request target.
    ///   - headers: Header fields; `Host` is added, and `Content-Length` when there is a body.
    ///   - body: The body.
    public func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + (body ?? []))
    }

    /// Sends a request and reads its response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil, timeout: Duration = .seconds(15)
    ) throws -> Response {
        try send(method, target, headers: headers, body: body)
        return try readResponse(timeout: timeout)
    }

    /// Reads one response: its head, then a body of `Content-Length` bytes, or the head alone
    /// for an event stream (whose events ``readEvent(timeout:)`` reads).
    public func readResponse(timeout: Duration = .seconds(15)) throws -> Response {
        let deadline = ContinuousClock.now + timeout
        chunked = false
        buffer += raw
        raw = []
        var end = buffer.firstRange(of: Array("\r\n\r\n".utf8))
        while end == nil {
            guard try fill(until: deadline) else {
                throw TestFailure("the connection closed before a response: \(String(decoding: buffer, as: UTF8.self))")
            }
            end = buffer.firstRange(of: Array("\r\n\r\n".utf8))
        }
        let head = String(decoding: buffer[..<end!.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end!.upperBound)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestFailure("not a status line: \(lines[0])") }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: [])
        if status == 100 { return try readResponse(timeout: timeout) }
        guard response.header("content-type")?.hasPrefix("text/event-stream") != true else {
            chunked = response.header("transfer-encoding") == "chunked"
            if chunked {
                raw = buffer
                buffer = []
                unchunk()
            }
            return response
        }
        let length = Int(response.header("content-length") ?? "0") ?? 0
        while buffer.count < length {
            guard try fill(until: deadline) else { throw TestFailure("the connection closed within a body") }
        }
        response.body = Array(buffer[..<length])
        buffer.removeSubrange(..<length)
        return response
    }

    /// Reads the next event of a stream, skipping comments and `retry:` lines.
    /// - Returns: The event, or `nil` when the server closed the stream.
    public func readEvent(timeout: Duration = .seconds(15)) throws -> Event? {
        let deadline = ContinuousClock.now + timeout
        while true {
            while let end = buffer.firstRange(of: Array("\n\n".utf8)) {
                let block = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                var event = Event(name: "message", id: nil, data: "")
                var data: [String] = []
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                if !data.isEmpty {
                    event.data = data.joined(separator: "\n")
                    return event
                }
            }
            guard try fill(until: deadline) else { return nil }
        }
    }

    /// Reads events until one satisfies `condition`.
    /// - Returns: The events read, the matching one last.
    /// - Throws: ``TestFailure`` when the stream ends or the time runs out first.
    public func readEvents(until condition: (Event) -> Bool, timeout: Duration = .seconds(15)) throws -> [Event] {
        let deadline = ContinuousClock.now + timeout
        var events: [Event] = []
        while let event = try readEvent(timeout: deadline - ContinuousClock.now) {
            events.append(event)
            if condition(event) { return events }
        }
        throw TestFailure("the stream ended without the event awaited; read: \(events.map(\.name))")
    }

    /// Reads and drops everything until the server closes the connection.
    /// - Returns: How many bytes were read.
    /// - Throws: ``TestFailure`` when the server does not close it in time.
    public func readToEnd(timeout: Duration = .seconds(30)) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        var total = buffer.count
        buffer = []
        while true {
            let before = buffer.count
            guard try fill(until: deadline) else { return total }
            total += buffer.count - before
            buffer = []
        }
    }

    /// Reads what is there into the buffer, waiting until the deadline.
    /// - Returns: `false` when the server closed the connection.
    private func fill(until deadline: ContinuousClock.Instant) throws -> Bool {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero, waitReadable(descriptor, timeout: remaining) else { throw TestFailure("timed out reading from the server") }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = read(descriptor, &chunk, chunk.count)
        if count < 0 && errno == ECONNRESET { return false }
        guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if chunked {
            raw += chunk[..<count]
            unchunk()
        } else {
            buffer += chunk[..<count]
        }
        return count > 0
    }

    /// Moves the whole chunks read so far from their framing into the buffer.
    private func unchunk() {
        while let line = raw.firstRange(of: Array("\r\n".utf8)),
            let size = Int(String(decoding: raw[..<line.lowerBound], as: UTF8.self).split(separator: ";")[0], radix: 16),
            raw.count >= line.upperBound + size + 2
        {
            buffer += raw[line.upperBound..<line.upperBound + size]
            raw.removeSubrange(..<(line.upperBound + size + 2))
        }
    }
}
