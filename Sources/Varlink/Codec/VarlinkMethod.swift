/// A method of a Varlink interface, tying its name to its parameter and reply types, so
/// that ``VarlinkClient`` and a service can work with typed values.
public protocol VarlinkMethod: Sendable {
    /// The method's input parameters.
    associatedtype Parameters: VarlinkObject
    /// The method's reply.
    associatedtype Reply: VarlinkObject

    /// The fully-qualified method name, e.g. `org.varlink.service.GetInfo`.
    static var name: String { get }

    /// Whether the method only works when called with `more` (else it answers
    /// `org.varlink.service.ExpectedMore`).
    static var requiresMore: Bool { get }
}

extension VarlinkMethod {
    /// Most methods answer once and work with or without `more`.
    public static var requiresMore: Bool { false }
}
