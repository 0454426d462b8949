/// Writes one JSON object member by member, for the types that write their own JSON text
/// rather than build a `[String: JSONValue]` for ``JSONWriter/writeObject(_:into:)`` first.
///
/// The caller gives the members in ascending order of their keys, so that the text is the
/// one `JSONWriter` writes for the same members, byte for byte.
public struct JSONObjectWriter {
    private var isEmpty = true

    /// Opens an object.
    /// - Parameter buffer: The buffer to append to.
    public init(opening buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
    }

    /// Appends a member's key, after a comma unless it is the first; its value follows.
    /// - Parameters:
    ///   - key: The member's name: ASCII that needs no escaping, after the previous key in order.
    ///   - buffer: The buffer to append to.
    public mutating func key(_ key: StaticString, into buffer: inout [UInt8]) {
        if !isEmpty { buffer.append(UInt8(ascii: ",")) }
        isEmpty = false
        buffer.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
    }

    /// Closes the object.
    /// - Parameter buffer: The buffer to append to.
    public func close(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "}"))
    }
}
