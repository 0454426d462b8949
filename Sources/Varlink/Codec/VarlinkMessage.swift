import VarlinkJSON

/// A Varlink message: a ``VarlinkCall`` or a ``VarlinkReply``, one JSON object per frame.
///
/// Both decode the same way: the frame's top-level members are read once, without building
/// a dictionary of them, and a frame that is not one JSON object is a protocol error.
public protocol VarlinkMessage: Sendable {
    /// Decodes a message from one frame (the bytes before its NUL terminator).
    /// - Parameter frame: The JSON text of the message.
    /// - Throws: ``VarlinkProtocolError`` when the frame is not a well-formed message.
    init(frame: UnsafeRawBufferPointer) throws(VarlinkProtocolError)

    /// Appends the message's JSON text and its NUL terminator to a buffer.
    /// - Parameter buffer: The buffer to append to.
    func encode(into buffer: inout [UInt8])
}

extension VarlinkMessage {
    /// Decodes a message from one frame (the bytes before its NUL terminator).
    /// - Parameter frame: The JSON text of the message.
    /// - Throws: ``VarlinkProtocolError`` when the frame is not a well-formed message.
    public init(frame: [UInt8]) throws(VarlinkProtocolError) {
        let result = frame.withUnsafeBytes { raw in
            Result { () throws(VarlinkProtocolError) in try Self(frame: raw) }
        }
        self = try result.get()
    }

    /// Hands each top-level member of a frame to `member`, in the order they appear.
    /// - Parameters:
    ///   - frame: The JSON text of the message.
    ///   - member: Receives each member's name and value.
    /// - Throws: ``VarlinkProtocolError/invalidJSON(_:)`` or ``VarlinkProtocolError/notAnObject``.
    static func readMembers(
        of frame: UnsafeRawBufferPointer, _ member: (String, JSONValue) -> Void
    ) throws(VarlinkProtocolError) {
        let isObject: Bool
        do {
            isObject = try JSONParser().parseMembers(frame, member)
        } catch {
            throw .invalidJSON(error)
        }
        guard isObject else { throw .notAnObject }
    }

    /// The message's JSON text with its NUL terminator.
    public var encoded: [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }

    /// Reads a boolean protocol member: absent and `null` are false.
    static func flag(_ value: JSONValue?, _ key: String) throws(VarlinkProtocolError) -> Bool {
        switch value {
        case nil, .null?: false
        case .bool(let flag)?: flag
        default: throw .invalidField(key)
        }
    }

    /// Reads an object protocol member: absent and `null` are empty.
    static func object(_ value: JSONValue?, _ key: String) throws(VarlinkProtocolError) -> [String: JSONValue] {
        switch value {
        case nil, .null?: [:]
        case .object(let object)?: object
        default: throw .invalidField(key)
        }
    }
}
