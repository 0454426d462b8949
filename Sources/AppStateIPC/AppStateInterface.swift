/// The `io.appstate` interface definition, exactly as shipped in `io.appstate.varlink`.
public enum AppStateInterface {
    /// The interface name.
    public static let name = "io.appstate"

    /// The full interface text, comments included, as `GetInterfaceDescription` returns it.
    public static let description = String(decoding: PackageResources.io_appstate_varlink, as: UTF8.self)
}
