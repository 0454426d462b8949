/// Where an HTTP server listens: a TCP address, a Unix socket path (for a reverse proxy in
/// front of it), or a listening socket it inherited (systemd's socket activation).
public enum HTTPEndpoint: Hashable, Sendable {
    /// A TCP address, such as `127.0.0.1:8080`.
    case tcp(ListenAddress)
    /// A Unix stream socket at this absolute path, created by the server.
    case unixSocket(path: String)
    /// A stream socket already bound and listening, passed by the process's parent.
    case descriptor(CInt)

    /// Reads `--listen`: `unix:PATH` for a Unix socket, else `HOST:PORT`.
    /// - Parameter text: The option's value.
    /// - Throws: ``ListenAddressError`` when it is neither, or the path is not absolute.
    public init(parsing text: String) throws(ListenAddressError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst("unix:".count))
            guard path.hasPrefix("/"), path.utf8.count < 108 else { throw ListenAddressError(text, acceptsUnixSockets: true) }
            self = .unixSocket(path: path)
            return
        }
        do {
            self = .tcp(try ListenAddress(parsing: text))
        } catch {
            throw ListenAddressError(text, acceptsUnixSockets: true)
        }
    }
}
