/// An interface a server offers: its name, for routing calls and for `GetInfo`, and its
/// text, for `GetInterfaceDescription`.
public struct VarlinkInterfaceDescription: Hashable, Sendable {
    /// The interface's name, e.g. `org.example.ping`.
    public let name: String
    /// The interface definition, comments included, as clients read it.
    public let description: String

    /// Describes an interface.
    /// - Parameters:
    ///   - name: The interface's name.
    ///   - description: The interface definition's text.
    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }
}
