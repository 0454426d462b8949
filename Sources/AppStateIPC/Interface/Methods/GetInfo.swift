import AppStateCore

/// `org.varlink.service.GetInfo() -> (vendor, product, version, url, interfaces)`: what
/// every Varlink service says about itself.
public enum GetInfo: VarlinkMethod {
    /// `org.varlink.service.GetInfo`.
    public static let name = "org.varlink.service.GetInfo"

    /// The parameters: none.
    public typealias Parameters = EmptyParameters

    /// The reply.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = ["vendor", "product", "version", "url", "interfaces"]

        /// The vendor of the service.
        public var vendor: String
        /// The name of the service.
        public var product: String
        /// The version of the service.
        public var version: String
        /// Where to read more about the service.
        public var url: String
        /// The fully-qualified names of the interfaces the service provides.
        public var interfaces: [String]

        /// Creates the reply.
        /// - Parameters:
        ///   - vendor: The vendor of the service.
        ///   - product: The name of the service.
        ///   - version: The version of the service.
        ///   - url: Where to read more about the service.
        ///   - interfaces: The interfaces the service provides.
        public init(vendor: String, product: String, version: String, url: String, interfaces: [String]) {
            self.vendor = vendor
            self.product = product
            self.version = version
            self.url = url
            self.interfaces = interfaces
        }
    }
}
