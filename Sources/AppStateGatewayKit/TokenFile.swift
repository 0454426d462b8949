import AppStateHTTP
import Glibc

/// The token a gateway keeps in a file (`--token-file`), so that it outlives restarts of
/// the gateway and the kiosk can read it: read when the file exists, else drawn and written
/// there with mode 0640 (the owner writes, its group reads, no one else), whatever the umask.
public enum TokenFile {
    /// The file's mode when the gateway creates it.
    public static let mode: mode_t = 0o640

    /// Reads the token, or creates the file with a new one.
    /// - Parameter path: The file.
    /// - Returns: The token.
    /// - Throws: ``GatewayError`` when the file cannot be read or created, or holds no token.
    public static func load(_ path: String) throws(GatewayError) -> AccessToken {
        if let text = try contents(of: path) {
            let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            guard let token = AccessToken(text: trimmed) else {
                throw GatewayError(
                    "\(path) holds no token: one line of at least \(AccessToken.minimumLength) letters, digits, '-', '_' or '.'")
            }
            return token
        }
        let token = AccessToken()
        // O_EXCL: two gateways starting at once must not each write a token of their own.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            if errno == EEXIST { return try load(path) }
            throw failure("create", path)
        }
        defer { close(descriptor) }
        let line = Array((token.text + "\n").utf8)
        guard fchmod(descriptor, mode) == 0, write(descriptor, line, line.count) == line.count, fsync(descriptor) == 0 else {
            let error = failure("write", path)
            unlink(path)
            throw error
        }
        return token
    }

    private static func contents(of path: String) throws(GatewayError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("read", path)
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &bytes, bytes.count)
        guard count >= 0 else { throw failure("read", path) }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    private static func failure(_ operation: String, _ path: String) -> GatewayError {
        GatewayError("cannot \(operation) the token file \(path): \(String(cString: strerror(errno)))")
    }
}
