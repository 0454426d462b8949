/// An interface a server offers: its name, for routing calls and for `GetInfo`, and its
/// text, for `GetInterfaceDescription`.
package struct VarlinkInterfaceDescription: Hashable, Sendable {
    /// The interface's name, e.g. `io.appstate`.
    package let name: String
    /// The interface definition, comments included, as clients read it.
    package let description: String

    /// Describes an interface.
    /// - Parameters:
    ///   - name: The interface's name.
    ///   - description: The interface definition's text.
    package init(name: String, description: String) {
        self.name = name
        self.description = description
    }
}
