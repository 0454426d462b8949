import AppStateCore

/// A value that travels as a Varlink object: a method's parameters or reply, or one of the
/// object types an interface declares.
///
/// Decoding is strict so that a typo in a client shows up at once instead of being
/// silently ignored: an undeclared member, a missing required member, or a member of the
/// wrong type throws `org.varlink.service.InvalidParameter` naming the member (a dotted
/// path such as `root.children[2].frame.x` inside nested objects). `int` members must be
/// integral numbers that fit an `Int`, `float` members finite numbers; `null` counts as
/// absent. Values of the right type that make no sense (a negative size) throw
/// `io.appstate.InvalidValue`.
public protocol VarlinkObject: Hashable, Sendable {
    /// The members the interface declares, in declaration order.
    static var memberNames: [String] { get }

    /// Decodes and validates the object.
    /// - Parameter parameters: The object's members as received.
    /// - Throws: `org.varlink.service.InvalidParameter` or `io.appstate.InvalidValue`.
    init(parameters: [String: JSONValue]) throws(VarlinkError)

    /// The object's members for encoding; optional members that are `nil` are left out.
    var parameters: [String: JSONValue] { get }
}
