/// What `org.varlink.service.GetInfo` says of the program behind the socket.
package struct ServiceInfo: Sendable {
    /// Who makes the program.
    package var vendor: String
    /// The program's name.
    package var product: String
    /// The program's version.
    package var version: String
    /// Where to learn more about it.
    package var url: String

    /// Describes a program.
    /// - Parameters:
    ///   - vendor: Who makes it.
    ///   - product: Its name.
    ///   - version: Its version.
    ///   - url: Where to learn more.
    package init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}
