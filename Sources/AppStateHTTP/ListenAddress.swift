/// A TCP address to listen on: `HOST:PORT` as `--listen` takes it, e.g. `127.0.0.1:8080`,
/// `[::1]:0`; port 0 lets the system choose a free one.
public struct ListenAddress: Hashable, Sendable {
    /// The address to bind, without brackets.
    public var host: String
    /// The port; 0 for one the system chooses.
    public var port: Int

    /// Creates an address.
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port, 0 to 65535.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT`; an IPv6 host is written in brackets, as in URLs.
    /// - Parameter text: The option's value.
    /// - Throws: ``ListenAddressError`` when the text is not a host and a port from 0 to 65535.
    public init(parsing text: String) throws(ListenAddressError) {
        guard let colon = text.lastIndex(of: ":") else { throw ListenAddressError(text) }
        var host = Substring(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
            throw ListenAddressError(text)
        }
        self.init(host: String(host), port: port)
    }

    /// Whether only this machine can connect: `127.0.0.0/8`, `::1` or `localhost`.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The host as a URL writes it: IPv6 addresses in brackets.
    public var urlHost: String {
        host.contains(":") ? "[\(host)]" : host
    }
}
