import VarlinkJSON

/// An error reply: a fully-qualified error name and its parameters.
///
/// Services throw it to answer a call with an error; ``VarlinkClient`` throws it when a
/// call is answered with one. Factories for the `org.varlink.service` errors are in
/// `VarlinkError+Service.swift`, an interface's own beside it (as its module declares them),
/// and ``message`` puts any of them into words.
public struct VarlinkError: Error, Hashable, Sendable {
    /// The fully-qualified error name, e.g. `org.varlink.service.MethodNotFound`.
    public var name: String
    /// The error's parameters, as declared with the error in its interface.
    public var parameters: [String: JSONValue]

    /// Creates an error.
    /// - Parameters:
    ///   - name: The fully-qualified error name.
    ///   - parameters: The error's parameters.
    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }
}
