/// A failure of `appstate-inspect` before it serves anything, as one sentence.
public struct InspectorError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidListenAddress(String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// `--listen` was not `HOST:PORT`.
    /// - Parameter text: The value given.
    public static func invalidListenAddress(_ text: String) -> InspectorError {
        InspectorError(.invalidListenAddress(text))
    }

    /// The sentence.
    public var description: String {
        switch code {
        case .invalidListenAddress(let text):
            "--listen takes HOST:PORT with a port from 0 to 65535 (e.g. 127.0.0.1:8080), not \"\(text)\""
        }
    }
}
