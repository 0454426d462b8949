import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Fills a `sockaddr_un` with a path and calls `body` with it.
/// - Parameters:
///   - path: The socket's path.
///   - body: Receives the address and its length.
/// - Throws: ``TestFailure`` when the path does not fit `sun_path`.
public func withUnixAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestFailure("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// A new AF_UNIX socket bound to `path` (which must not exist), close-on-exec.
/// - Parameters:
///   - type: `SOCK_STREAM` or `SOCK_DGRAM`.
///   - path: Where to bind it.
/// - Returns: The descriptor.
/// - Throws: The `POSIXError` of `socket` or `bind`.
public func unixSocket(_ type: __socket_type, boundTo path: String) throws -> Int32 {
    try unixSocket(type, path: path, flags: 0, bind)
}

/// A new AF_UNIX stream socket connected to `path`, close-on-exec.
/// - Parameters:
///   - path: The listening socket.
///   - flags: More `socket` type flags, e.g. `SOCK_NONBLOCK`.
/// - Returns: The descriptor.
/// - Throws: The `POSIXError` of `socket` or `connect` (e.g. `EACCES`, `EAGAIN`).
public func unixSocket(connectedTo path: String, flags: Int32 = 0) throws -> Int32 {
    try unixSocket(SOCK_STREAM, path: path, flags: flags, connect)
}

private func unixSocket(
    _ type: __socket_type, path: String, flags: Int32, _ operation: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    guard try withUnixAddress(path, { operation(descriptor, $0, $1) }) == 0 else {
        let number = errno
        close(descriptor)
        throw POSIXError(POSIXErrorCode(rawValue: number) ?? .EIO)
    }
    return descriptor
}
