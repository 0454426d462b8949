/// The `org.varlink.service` interface that every Varlink service provides, so a daemon
/// can answer `GetInterfaceDescription` for it as well as for its own interfaces.
public enum VarlinkServiceInterface {
    /// The interface name.
    public static let name = "org.varlink.service"

    /// The interface text.
    public static let description = String(decoding: PackageResources.org_varlink_service_varlink, as: UTF8.self)
}
