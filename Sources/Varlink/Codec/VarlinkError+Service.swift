extension VarlinkError {
    /// `org.varlink.service.MethodNotFound`: the interface has no such method.
    /// - Parameter method: The method name as the caller gave it.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError(name: VarlinkServiceErrorName.methodNotFound.rawValue, parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.InterfaceNotFound`: the service does not provide the interface.
    /// - Parameter interface: The interface name as the caller gave it.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError(name: VarlinkServiceErrorName.interfaceNotFound.rawValue, parameters: ["interface": .string(interface)])
    }

    /// `org.varlink.service.InvalidParameter`: a parameter is undeclared, missing or of the wrong type.
    /// - Parameter parameter: The parameter's name (a dotted path for members of nested objects).
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError(name: VarlinkServiceErrorName.invalidParameter.rawValue, parameters: ["parameter": .string(parameter)])
    }

    /// `org.varlink.service.MethodNotImplemented`: the method is declared but not implemented.
    /// - Parameter method: The method name.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError(name: VarlinkServiceErrorName.methodNotImplemented.rawValue, parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.PermissionDenied`: the caller may not do this.
    public static var permissionDenied: VarlinkError {
        VarlinkError(name: VarlinkServiceErrorName.permissionDenied.rawValue)
    }

    /// `org.varlink.service.ExpectedMore`: the method must be called with `more`.
    public static var expectedMore: VarlinkError {
        VarlinkError(name: VarlinkServiceErrorName.expectedMore.rawValue)
    }
}
