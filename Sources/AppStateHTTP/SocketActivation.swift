import Glibc

/// systemd's socket activation, read as `sd_listen_fds(3)` does without linking libsystemd:
/// `LISTEN_PID` names this process, `LISTEN_FDS` counts the listening sockets passed from
/// descriptor 3 on.
public enum SocketActivation {
    /// The first passed descriptor.
    public static let firstDescriptor: CInt = 3

    /// Takes the listening sockets passed to this process, if it was socket-activated.
    ///
    /// Each must be a listening stream socket (TCP or Unix). `LISTEN_PID`, `LISTEN_FDS` and
    /// `LISTEN_FDNAMES` are removed from the environment, so that children do not believe they
    /// were activated; call it once, early, before other threads read the environment. The
    /// descriptors get `FD_CLOEXEC`, so children do not inherit them.
    /// - Returns: The descriptors; empty when none were passed to this process.
    /// - Throws: ``HTTPServerError`` when the variables are malformed or a descriptor is not a
    ///   listening stream socket.
    public static func takeListeningSockets() throws(HTTPServerError) -> [CInt] {
        let pid = getenv("LISTEN_PID").map { String(cString: $0) }
        let count = getenv("LISTEN_FDS").map { String(cString: $0) }
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        guard let pid, let count else { return [] }
        guard Int32(pid) == getpid() else { return [] }
        guard let number = Int32(count), number >= 0, number < 1024 else {
            throw HTTPServerError("LISTEN_FDS is \"\(count)\", not a number of descriptors")
        }
        return try (firstDescriptor..<firstDescriptor + number).map { descriptor throws(HTTPServerError) in
            guard isListeningStreamSocket(descriptor) else {
                throw HTTPServerError("the passed descriptor \(descriptor) is not a listening stream socket")
            }
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
            return descriptor
        }
    }

    private static func isListeningStreamSocket(_ descriptor: CInt) -> Bool {
        func option(_ name: CInt) -> CInt? {
            var value: CInt = 0
            var length = socklen_t(MemoryLayout<CInt>.size)
            return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        return option(SO_TYPE) == CInt(SOCK_STREAM.rawValue) && option(SO_ACCEPTCONN) == 1
    }
}
