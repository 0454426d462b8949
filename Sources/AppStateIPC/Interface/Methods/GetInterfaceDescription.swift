import AppStateCore

/// `org.varlink.service.GetInterfaceDescription(interface: string) -> (description: string)`:
/// the definition of an interface the service provides.
public enum GetInterfaceDescription: VarlinkMethod {
    /// `org.varlink.service.GetInterfaceDescription`.
    public static let name = "org.varlink.service.GetInterfaceDescription"

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["interface"]

        /// The fully-qualified interface name.
        public var interface: String

        /// Creates the parameters.
        /// - Parameter interface: The fully-qualified interface name.
        public init(interface: String) {
            self.interface = interface
        }
    }

    /// The reply.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = ["description"]

        /// The interface definition, comments included.
        public var description: String

        /// Creates the reply.
        /// - Parameter description: The interface definition, comments included.
        public init(description: String) {
            self.description = description
        }
    }
}
