import Varlink

/// The `org.varlink.certification` interface, exactly as Varlink's own implementations ship
/// it (PyPI's `varlink` 31.0.0): the calls every value type, nullable and optional members,
/// maps, sets, `more` and `oneway` take in turn.
package enum CertificationInterface {
    /// The interface name.
    package static let name = "org.varlink.certification"

    /// The interface text, as `GetInterfaceDescription` returns it.
    package static let description = String(decoding: PackageResources.org_varlink_certification_varlink, as: UTF8.self)

    /// The interface as a server hosts it.
    package static var hosted: VarlinkInterfaceDescription {
        VarlinkInterfaceDescription(name: name, description: description)
    }

    /// `org.varlink.certification.ClientIdError`: the call names no client that started.
    static var clientIdError: VarlinkError {
        VarlinkError(name: CertificationErrorName.clientIdError.rawValue)
    }

    /// `org.varlink.certification.CertificationError`: a call differs from what the step wants.
    /// - Parameters:
    ///   - wants: The call the step wants.
    ///   - got: The call received.
    static func certificationError(wants: [String: JSONValue], got: [String: JSONValue]) -> VarlinkError {
        VarlinkError(name: CertificationErrorName.certificationError.rawValue, parameters: ["wants": .object(wants), "got": .object(got)])
    }
}
