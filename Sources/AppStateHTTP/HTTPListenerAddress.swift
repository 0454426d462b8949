/// What a listening socket of an ``HTTPServer`` is bound to, read back from the socket, so
/// that a port the system chose, or one systemd bound, is known.
public enum HTTPListenerAddress: Hashable, Sendable {
    /// A TCP address: the host as the socket reports it (`127.0.0.1`, `::1`) and the port.
    case tcp(host: String, port: Int)
    /// A Unix socket's path.
    case unixSocket(path: String)

    /// The origins a browser gives the pages served here, `http://HOST:PORT`, when only this
    /// machine can connect: `localhost` names the loopback address too. None for a Unix socket,
    /// whose pages are reached through a proxy under a name only its configuration knows, nor
    /// for an address other machines reach, whose names are the network's.
    public var loopbackOrigins: [String] {
        guard case .tcp(let host, let port) = self else { return [] }
        let address = ListenAddress(host: host, port: port)
        guard address.isLoopback else { return [] }
        return ["http://\(address.urlHost):\(port)", "http://localhost:\(port)"]
    }

    /// The address as a URL starts, `http://HOST:PORT`, or `unix:PATH`.
    public var url: String {
        switch self {
        case .tcp(let host, let port): "http://\(ListenAddress(host: host, port: port).urlHost):\(port)"
        case .unixSocket(let path): "unix:\(path)"
        }
    }
}
