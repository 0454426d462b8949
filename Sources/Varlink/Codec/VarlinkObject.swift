import VarlinkJSON

/// A value that travels as a Varlink object: a method's parameters or reply, or one of the
/// object types an interface declares.
///
/// Decoding is strict so that a typo in a client shows up at once instead of being
/// silently ignored: an undeclared member, a missing required member, or a member of the
/// wrong type throws `org.varlink.service.InvalidParameter` naming the member (a dotted
/// path such as `root.children[2].frame.x` inside nested objects). `int` members must be
/// integral numbers that fit an `Int`, `float` members finite numbers; `null` counts as
/// absent. Values of the right type that make no sense (a negative size) throw
/// an error the interface declares.
///
/// Each type declares its members once. The interface's types and the methods' parameters
/// and replies are generated from the interface file, with their encoding
/// (`JSONObjectEncodable`, which ``parameters`` then is); decoding is derived from the
/// `Codable` conformance by `VarlinkObjectDecoder`, as encoding is by `VarlinkObjectEncoder`
/// for the few types written by hand, and a type checks what its member types cannot in
/// ``validate()``.
public protocol VarlinkObject: Codable, Hashable, Sendable {
    /// The members the interface declares, in declaration order.
    static var memberNames: [String] { get }

    /// Decodes and validates the object; derived from `Codable` unless the type decodes
    /// itself.
    /// - Parameter parameters: The object's members as received.
    /// - Throws: `org.varlink.service.InvalidParameter` or an error the interface declares.
    init(parameters: [String: JSONValue]) throws(VarlinkError)

    /// The object's members for encoding; derived from `Codable` unless the type encodes
    /// itself.
    var parameters: [String: JSONValue] { get }

    /// Checks what the member types cannot say: ranges, members that exclude each other.
    /// - Throws: an error the interface declares naming the member.
    func validate() throws(VarlinkError)
}

extension VarlinkObject {
    /// Nothing to check beyond the members' types.
    public func validate() throws(VarlinkError) {}

    /// Decodes and validates the object.
    /// - Parameter parameters: The object's members as received.
    /// - Throws: `org.varlink.service.InvalidParameter` or an error the interface declares.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        self = try VarlinkObjectDecoder.decode(Self.self, from: parameters)
        try validate()
    }

    /// The object's members for encoding; optional members that are `nil` are left out.
    public var parameters: [String: JSONValue] { VarlinkObjectEncoder.members(of: self) }
}

extension VarlinkObject where Self: JSONObjectEncodable {
    /// The object's members as its generated encoding gives them (VarlinkJSON's
    /// `JSONObjectEncodable.jsonMembers`), the one the interface's types and the generated
    /// methods' parameters and replies have.
    public var parameters: [String: JSONValue] { jsonMembers }
}
