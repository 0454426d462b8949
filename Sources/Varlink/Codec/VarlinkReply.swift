import VarlinkJSON

/// A Varlink reply: one NUL-terminated JSON object sent from service to client.
///
/// The wire format is `parameters: ?object, continues: ?bool, error: ?string`. As for
/// ``VarlinkCall``, `null` members count as absent, a protocol member of the wrong type is
/// a ``VarlinkProtocolError``, and unknown top-level members are ignored.
public struct VarlinkReply: VarlinkMessage, Hashable {
    /// The output parameters, or the error's parameters when ``error`` is set.
    public var parameters: [String: JSONValue]
    /// Whether more replies to the same call follow (only after a call with `more`).
    public var continues: Bool
    /// The fully-qualified error name when the call failed.
    public var error: String?

    /// Creates a reply.
    /// - Parameters:
    ///   - parameters: The output parameters (or the error's parameters).
    ///   - continues: Whether more replies to the same call follow.
    ///   - error: The fully-qualified error name when the call failed.
    public init(parameters: [String: JSONValue] = [:], continues: Bool = false, error: String? = nil) {
        self.parameters = parameters
        self.continues = continues
        self.error = error
    }

    /// Creates the reply that reports an error; it ends the call.
    /// - Parameter error: The error to report.
    public init(error: VarlinkError) {
        self.init(parameters: error.parameters, continues: false, error: error.name)
    }

    /// Decodes a reply from one frame (the bytes before its NUL terminator).
    /// - Parameter frame: The JSON text of the message.
    /// - Throws: ``VarlinkProtocolError`` when the frame is not a well-formed reply.
    public init(frame: UnsafeRawBufferPointer) throws(VarlinkProtocolError) {
        var parameters: JSONValue?
        var continues: JSONValue?
        var error: JSONValue?
        try Self.readMembers(of: frame) { key, value in
            switch key {
            case "parameters": parameters = value
            case "continues": continues = value
            case "error": error = value
            default: break
            }
        }
        try self.init(parameters: parameters, continues: continues, error: error)
    }

    /// Decodes a reply from an already parsed message.
    /// - Parameter message: The message object.
    /// - Throws: ``VarlinkProtocolError`` when the message is not a well-formed reply.
    public init(message: JSONValue) throws(VarlinkProtocolError) {
        guard case .object(let members) = message else { throw .notAnObject }
        try self.init(parameters: members["parameters"], continues: members["continues"], error: members["error"])
    }

    private init(parameters: JSONValue?, continues: JSONValue?, error: JSONValue?) throws(VarlinkProtocolError) {
        self.parameters = try Self.object(parameters, "parameters")
        self.continues = try Self.flag(continues, "continues")
        switch error {
        case nil, .null?: self.error = nil
        case .string(let name)?: self.error = name
        default: throw .invalidField("error")
        }
    }

    /// The error this reply reports, if it reports one.
    public var varlinkError: VarlinkError? {
        error.map { VarlinkError(name: $0, parameters: parameters) }
    }

    /// Appends the reply's JSON text and its NUL terminator to a buffer.
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"parameters":"#.utf8)
        JSONWriter.writeObject(parameters, into: &buffer)
        if continues { buffer.append(contentsOf: #","continues":true"#.utf8) }
        if let error {
            buffer.append(contentsOf: #","error":"#.utf8)
            JSONWriter.writeString(error, into: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
        buffer.append(0)
    }
}
