import Varlink

/// What `org.varlink.service.GetInfo` says of the program behind the socket.
public struct ServiceInfo: Sendable {
    /// Who makes the program.
    public var vendor: String
    /// The program's name.
    public var product: String
    /// The program's version.
    public var version: String
    /// Where to learn more about it.
    public var url: String

    /// Describes a program.
    /// - Parameters:
    ///   - vendor: Who makes it.
    ///   - product: Its name.
    ///   - version: Its version.
    ///   - url: Where to learn more.
    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}
