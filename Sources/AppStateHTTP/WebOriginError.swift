/// An `--origin` value that is not an origin, as one sentence.
public struct WebOriginError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value given.
    public let text: String

    /// Creates the error.
    /// - Parameter text: The value given.
    public init(_ text: String) {
        self.text = text
    }

    /// The sentence.
    public var description: String {
        "--origin takes an origin such as https://kiosk.example or http://127.0.0.1:8080, not \"\(text)\""
    }
}
