import Glibc

/// Makes a Unix socket path free to bind: a socket file left by a server that has gone is
/// removed, but never one that a running server still answers on, nor anything else.
enum UnixSocketPath {
    static func prepare(_ path: String) throws(HTTPServerError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw HTTPServerError("cannot listen on \(path): something other than a socket is there")
        }
        guard !answers(path) else { throw HTTPServerError("cannot listen on \(path): another server listens there") }
        unlink(path)
    }

    private static func answers(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }
}
