import Glibc

/// A connected Unix stream socket, driven with plain POSIX calls so that a client needs
/// neither NIO nor Foundation and starts without loading them.
struct UnixSocket: Sendable {
    let descriptor: Int32
    let address: String

    /// Connects to a socket path, or to an address in Varlink's notation: `unix:/path`
    /// (anything after `;` is ignored) or `@name` for the abstract namespace.
    static func connect(to address: String, timeout: Duration?) throws(VarlinkClientError) -> UnixSocket {
        var path = address
        if path.hasPrefix("unix:") { path.removeFirst(5) }
        if let semicolon = path.firstIndex(of: ";") { path = String(path[..<semicolon]) }

        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(path.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard !pathBytes.isEmpty else {
            throw VarlinkClientError(.invalidAddress, socketPath: address, detail: "empty socket path")
        }
        guard pathBytes.count < capacity else {
            throw VarlinkClientError(.invalidAddress, socketPath: address, detail: "socket path longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: pathBytes) }
        // An abstract name is exactly its bytes; a path is NUL-terminated.
        let terminator = pathBytes.first == 0 ? 0 : 1
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count + terminator)

        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw VarlinkClientError(.systemError, socketPath: address, errorNumber: errno, detail: "socket")
        }
        // A blocking connect to a Unix socket waits while the listener's backlog is full;
        // SO_SNDTIMEO bounds that wait (Linux applies it to AF_UNIX connect).
        if let timeout {
            var limit = timeval(duration: timeout)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        let result = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        guard result == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            throw VarlinkClientError(connectErrorNumber: failure, socketPath: address)
        }
        return UnixSocket(descriptor: descriptor, address: address)
    }

    /// Writes all of `bytes`, waiting for the socket to drain until the deadline.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) throws(VarlinkClientError) {
        var offset = 0
        while offset < bytes.count {
            try wait(for: Int16(POLLOUT), until: deadline, operation: "send")
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR, EAGAIN: continue
            case EPIPE, ECONNRESET: throw VarlinkClientError(.connectionClosed, socketPath: address, errorNumber: errno)
            case let failure: throw VarlinkClientError(.systemError, socketPath: address, errorNumber: failure, detail: "send")
            }
        }
    }

    /// Reads whatever has arrived (waiting for something until the deadline) into the decoder.
    func receive(into decoder: inout VarlinkFrameDecoder, deadline: ContinuousClock.Instant?) throws(VarlinkClientError) {
        while true {
            try wait(for: Int16(POLLIN), until: deadline, operation: "waiting for a reply")
            let received = withUnsafeTemporaryAllocation(byteCount: 65536, alignment: 1) { chunk in
                let count = recv(descriptor, chunk.baseAddress, chunk.count, Int32(MSG_DONTWAIT))
                if count > 0 { decoder.append(UnsafeRawBufferPointer(rebasing: chunk[..<count])) }
                return count
            }
            if received > 0 { return }
            if received == 0 { throw VarlinkClientError(.connectionClosed, socketPath: address) }
            switch errno {
            case EINTR, EAGAIN: continue
            case ECONNRESET: throw VarlinkClientError(.connectionClosed, socketPath: address, errorNumber: ECONNRESET)
            case let failure: throw VarlinkClientError(.systemError, socketPath: address, errorNumber: failure, detail: "recv")
            }
        }
    }

    /// Ends both directions, which also wakes any thread blocked on the socket.
    func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }

    private func wait(for events: Int16, until deadline: ContinuousClock.Instant?, operation: String) throws(VarlinkClientError) {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        while true {
            let milliseconds: Int32
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else {
                    throw VarlinkClientError(.timedOut, socketPath: address, detail: operation)
                }
                let (seconds, attoseconds) = remaining.components
                milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            } else {
                milliseconds = -1
            }
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR {
                throw VarlinkClientError(.systemError, socketPath: address, errorNumber: errno, detail: "poll")
            }
        }
    }
}

extension timeval {
    fileprivate init(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
