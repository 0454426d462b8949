/// The `org.varlink.service` interface that every Varlink service provides, so a daemon
/// can answer `GetInterfaceDescription` for it as well as for its own interfaces.
public enum VarlinkServiceInterface {
    /// The interface name.
    public static let name = "org.varlink.service"

    /// The interface text.
    public static let description = """
        # Provided by every Varlink service: describes the service and the
        # interfaces it implements.
        interface org.varlink.service

        # Returns who made the service, its version and the interfaces it provides.
        method GetInfo() -> (
          # The vendor of the service.
          vendor: string,
          # The name of the service.
          product: string,
          # The version of the service.
          version: string,
          # Where to read more about the service.
          url: string,
          # The fully-qualified names of the interfaces the service provides.
          interfaces: []string
        )

        # Returns the definition of one of the interfaces the service provides.
        method GetInterfaceDescription(
          # The fully-qualified interface name.
          interface: string
        ) -> (
          # The interface definition, comments included.
          description: string
        )

        # The service does not provide this interface.
        error InterfaceNotFound (
          # The interface name that was asked for.
          interface: string
        )

        # The interface has no method of this name.
        error MethodNotFound (
          # The method name that was asked for.
          method: string
        )

        # The interface declares the method, but the service does not implement it.
        error MethodNotImplemented (
          # The method name.
          method: string
        )

        # A parameter is undeclared, missing or of the wrong type.
        error InvalidParameter (
          # The name of the parameter.
          parameter: string
        )

        # The caller is not allowed to call this method.
        error PermissionDenied ()

        # The method must be called with more set to true.
        error ExpectedMore ()

        """
}
