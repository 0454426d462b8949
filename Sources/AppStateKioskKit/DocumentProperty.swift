/// An attribute or a custom property of a page's `<html>`, as appstate.js writes them.
public struct DocumentProperty: Hashable, Sendable {
    /// The attribute's name, or the custom property's, which starts with `--`.
    public let name: String
    /// Its value.
    public let value: String

    /// A property.
    /// - Parameters:
    ///   - name: The attribute's name, or the custom property's.
    ///   - value: Its value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
