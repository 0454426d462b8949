import VarlinkJSON

/// A Varlink method call: one NUL-terminated JSON object sent from client to service.
///
/// Decoding follows the Varlink specification's message format
/// (`method: string, parameters: ?object, oneway: ?bool, more: ?bool, upgrade: ?bool`):
/// a message that is not an object, has no string `method`, or gives one of the other
/// members a wrong type is a ``VarlinkProtocolError`` and the connection should be
/// closed. A `null` member counts as absent, as the `?` types say. Other top-level
/// members are ignored: the specification likens the call's members to HTTP headers and
/// reserves extension members (named after a vendor, in reverse-domain notation), so a
/// service must let them pass rather than fail peers that add them.
public struct VarlinkCall: VarlinkMessage, Hashable {
    /// The fully-qualified method name, e.g. `org.varlink.service.GetInfo`.
    public var method: String
    /// The input parameters.
    public var parameters: [String: JSONValue]
    /// Whether the client wants no reply at all.
    public var oneway: Bool
    /// Whether the client accepts several replies (ending with one without `continues`).
    public var more: Bool
    /// Whether the client asks to take the connection over with another protocol.
    public var upgrade: Bool

    /// Creates a call.
    /// - Parameters:
    ///   - method: The fully-qualified method name.
    ///   - parameters: The input parameters.
    ///   - oneway: Whether the service must not reply.
    ///   - more: Whether several replies are welcome.
    ///   - upgrade: Whether the connection should be taken over by another protocol.
    public init(
        method: String,
        parameters: [String: JSONValue] = [:],
        oneway: Bool = false,
        more: Bool = false,
        upgrade: Bool = false
    ) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// Decodes a call from one frame (the bytes before its NUL terminator).
    /// - Parameter frame: The JSON text of the message.
    /// - Throws: ``VarlinkProtocolError`` when the frame is not a well-formed call.
    public init(frame: UnsafeRawBufferPointer) throws(VarlinkProtocolError) {
        var method: JSONValue?
        var parameters: JSONValue?
        var oneway: JSONValue?
        var more: JSONValue?
        var upgrade: JSONValue?
        try Self.readMembers(of: frame) { key, value in
            switch key {
            case "method": method = value
            case "parameters": parameters = value
            case "oneway": oneway = value
            case "more": more = value
            case "upgrade": upgrade = value
            default: break
            }
        }
        try self.init(method: method, parameters: parameters, oneway: oneway, more: more, upgrade: upgrade)
    }

    /// Decodes a call from an already parsed message.
    /// - Parameter message: The message object.
    /// - Throws: ``VarlinkProtocolError`` when the message is not a well-formed call.
    public init(message: JSONValue) throws(VarlinkProtocolError) {
        guard case .object(let members) = message else { throw .notAnObject }
        try self.init(
            method: members["method"],
            parameters: members["parameters"],
            oneway: members["oneway"],
            more: members["more"],
            upgrade: members["upgrade"]
        )
    }

    /// Checks the protocol's members in a fixed order, so that a message with several
    /// problems is always reported the same way.
    private init(
        method: JSONValue?, parameters: JSONValue?, oneway: JSONValue?, more: JSONValue?, upgrade: JSONValue?
    ) throws(VarlinkProtocolError) {
        guard case .string(let name)? = method else { throw .missingMethod }
        self.method = name
        self.parameters = try Self.object(parameters, "parameters")
        self.oneway = try Self.flag(oneway, "oneway")
        self.more = try Self.flag(more, "more")
        self.upgrade = try Self.flag(upgrade, "upgrade")
    }

    /// Appends the call's JSON text and its NUL terminator to a buffer.
    ///
    /// `parameters` is always written (as `{}` when empty), because some services reject
    /// calls without it; the flags only when set.
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"method":"#.utf8)
        JSONWriter.writeString(method, into: &buffer)
        buffer.append(contentsOf: #","parameters":"#.utf8)
        JSONWriter.writeObject(parameters, into: &buffer)
        if oneway { buffer.append(contentsOf: #","oneway":true"#.utf8) }
        if more { buffer.append(contentsOf: #","more":true"#.utf8) }
        if upgrade { buffer.append(contentsOf: #","upgrade":true"#.utf8) }
        buffer.append(UInt8(ascii: "}"))
        buffer.append(0)
    }
}
