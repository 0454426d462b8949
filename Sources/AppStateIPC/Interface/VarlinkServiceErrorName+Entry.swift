extension VarlinkServiceErrorName {
    /// The error's sentence, `appstatectl`'s exit status and the gateway's HTTP status. For a
    /// well-formed request from appstate's own clients most of them mean that the client and
    /// the daemon speak different versions of the interface; a method the daemon lacks is 501,
    /// as the gateway allowed it but this daemon does not implement it.
    public var entry: ErrorCatalogueEntry {
        let versionHint = "(are the client and appstated the same version?)"
        return switch self {
        case .interfaceNotFound:
            ErrorCatalogueEntry(http: 501, example: .interfaceNotFound("org.example")) {
                "appstated does not provide the interface \($0["interface"])"
            }
        case .methodNotFound:
            ErrorCatalogueEntry(http: 501, example: .methodNotFound("io.appstate.Fly")) {
                "appstated does not know the method \($0["method"]) \(versionHint)"
            }
        case .methodNotImplemented:
            ErrorCatalogueEntry(http: 501, example: .methodNotImplemented("io.appstate.Fly")) {
                "appstated does not implement the method \($0["method"]) \(versionHint)"
            }
        case .invalidParameter:
            ErrorCatalogueEntry(http: 400, example: .invalidParameter("step")) {
                "appstated rejected the parameter \($0["parameter"]) \(versionHint)"
            }
        case .permissionDenied:
            ErrorCatalogueEntry(http: 403, example: .permissionDenied) { _ in
                "permission denied: your user may not change appstated's state (ask to be added to the appstate group)"
            }
        case .expectedMore:
            ErrorCatalogueEntry(http: 400, example: .expectedMore) { _ in "appstated expects this call to be a stream \(versionHint)" }
        }
    }
}
