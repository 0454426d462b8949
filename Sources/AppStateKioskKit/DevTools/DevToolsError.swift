import AppStateCore

/// A failure of the Chrome DevTools Protocol connection or an error reply to a command.
public struct DevToolsError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case reply(method: String, code: Int, message: String)
        case closed
        case malformedMessage(String)
        case unexpectedReply(method: String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The browser answered a command with an error.
    /// - Parameters:
    ///   - method: The command, e.g. `Page.navigate`.
    ///   - code: The protocol's error code.
    ///   - message: The protocol's message.
    public static func reply(method: String, code: Int, message: String) -> DevToolsError {
        DevToolsError(.reply(method: method, code: code, message: message))
    }

    /// The browser closed its end of the pipe: it exited, or is exiting.
    public static let closed = DevToolsError(.closed)

    /// The browser sent something that is not a protocol message.
    /// - Parameter detail: What was wrong, in words.
    public static func malformedMessage(_ detail: String) -> DevToolsError {
        DevToolsError(.malformedMessage(detail))
    }

    /// A reply lacked what its command always returns.
    /// - Parameter method: The command.
    public static func unexpectedReply(method: String) -> DevToolsError {
        DevToolsError(.unexpectedReply(method: method))
    }

    /// Whether the browser's end of the pipe is gone.
    public var isClosed: Bool { code == .closed }

    /// The error in words.
    public var description: String {
        switch code {
        case .reply(let method, let code, let message): "\(method) failed: \(message) (\(code))"
        case .closed: "the browser closed its DevTools pipe"
        case .malformedMessage(let detail): "the browser sent a malformed DevTools message: \(detail)"
        case .unexpectedReply(let method): "the browser's reply to \(method) lacks its result"
        }
    }
}
