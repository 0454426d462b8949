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
        var text = ""
        if let id { text += "id: \(id)\n" }
        if let name { text += "event: \(name)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
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
