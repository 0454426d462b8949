/// The errors of the `org.varlink.service` interface, which every Varlink service speaks.
public enum VarlinkServiceErrorName: String, CaseIterable, Sendable {
    /// The interface named in the call is not provided (parameter `interface`).
    case interfaceNotFound = "org.varlink.service.InterfaceNotFound"
    /// The interface has no method of that name (parameter `method`).
    case methodNotFound = "org.varlink.service.MethodNotFound"
    /// The interface declares the method but the service does not implement it (parameter `method`).
    case methodNotImplemented = "org.varlink.service.MethodNotImplemented"
    /// A parameter is undeclared, missing or of the wrong type (parameter `parameter`).
    case invalidParameter = "org.varlink.service.InvalidParameter"
    /// The caller may not do this.
    case permissionDenied = "org.varlink.service.PermissionDenied"
    /// The method only works when called with `more`.
    case expectedMore = "org.varlink.service.ExpectedMore"
}
