/// One message of a Server-Sent Events stream in its text form: an optional `id:`, an
/// optional `event:` name, one `data:` line per line of the data, and a blank line.
public struct ServerSentEvent: Hashable, Sendable {
    /// The event's name; `nil` for the default, `message`.
    public var name: String?
    /// The event id a client sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// The data; a line break in it becomes another `data:` line.
    public var data: String

    /// Creates an event.
    /// - Parameters:
    ///   - name: The event's name.
    ///   - id: The event id.
    ///   - data: The data.
    public init(name: String? = nil, id: String? = nil, data: String) {
        self.name = name
        self.id = id
        self.data = data
    }

    /// The message as the stream carries it.
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The message as the stream carries it, in UTF-8. Each line of the data, whether it ends
    /// with LF, CR or CRLF (as a client splits them), becomes a `data:` line of its own.
    public var bytes: [UInt8] {
        // Split on bytes: a split on Characters walks every grapheme of a whole tree's JSON,
        // and would keep a CRLF, a single Character, in one line that the client splits.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + 64)
        if let id { bytes += "id: \(id)\n".utf8 }
        if let name { bytes += "event: \(name)\n".utf8 }
        let data = Array(data.utf8)
        func appendLine(_ line: ArraySlice<UInt8>) {
            bytes += "data: ".utf8
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
        }
        var start = 0
        var index = 0
        while index < data.count {
            let byte = data[index]
            index += 1
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else { continue }
            appendLine(data[start..<index - 1])
            if byte == UInt8(ascii: "\r"), index < data.count, data[index] == UInt8(ascii: "\n") { index += 1 }
            start = index
        }
        appendLine(data[start...])
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// A comment line, which clients ignore: it keeps an idle stream from being closed by
    /// proxies and shows the server that a client has gone.
    public static let keepAlive = ": keep-alive\n\n"

    /// How long a client waits before it reconnects, in milliseconds (`retry:`).
    /// - Parameter milliseconds: The delay.
    public static func retry(milliseconds: Int) -> String {
        "retry: \(milliseconds)\n\n"
    }
}
