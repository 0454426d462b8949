/// The catalogue of every error the daemon's interfaces declare, by name: the `io.appstate`
/// errors (`AppStateErrorCatalogue.swift`, beside the interface file) and the
/// `org.varlink.service` ones.
///
/// `VarlinkError.message`, `appstatectl`'s sentences and exit statuses, the gateway's HTTP
/// statuses and the documentation's table of errors all come from here.
public enum ErrorCatalogue {
    /// The entry of an error.
    /// - Parameter name: The error's fully-qualified name, e.g. `io.appstate.NoSuchNode`.
    /// - Returns: Its entry; nil for an error no interface of this library declares.
    public static func entry(for name: String) -> ErrorCatalogueEntry? {
        AppStateErrorName(rawValue: name)?.entry ?? VarlinkServiceErrorName(rawValue: name)?.entry
    }

    /// Every entry: `io.appstate`'s errors, then `org.varlink.service`'s, each in its
    /// interface file's order.
    public static var all: [ErrorCatalogueEntry] {
        AppStateErrorName.allCases.map(\.entry) + VarlinkServiceErrorName.allCases.map(\.entry)
    }
}
