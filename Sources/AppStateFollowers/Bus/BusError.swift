import Glibc

/// An error talking to a D-Bus bus through sd-bus: opening the connection, a call that
/// failed or timed out, a reply of an unexpected shape, or a connection that went away.
///
/// ``description`` is a sentence fit for the one log line a follower writes when its source
/// goes away.
package struct BusError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a value callers can compare against the static members.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case connectionFailed
            case disconnected
            case callFailed
            case unexpectedReply
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The bus could not be reached (no socket, refused, no permission).
        package static let connectionFailed = Code(.connectionFailed)
        /// The connection broke, the bus closed it, or a call got no answer in time.
        package static let disconnected = Code(.disconnected)
        /// A method call was answered with a D-Bus error.
        package static let callFailed = Code(.callFailed)
        /// A reply or property had another type than the interface declares.
        package static let unexpectedReply = Code(.unexpectedReply)

        /// The code's name, e.g. `connectionFailed`.
        package var description: String { wrapped.rawValue }
    }

    /// What went wrong.
    package let code: Code
    /// A sentence naming what failed and why.
    package let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A sentence naming what failed.
    ///   - result: The negative errno an sd-bus function returned; its text is appended.
    init(_ code: Code, _ message: String, result: CInt? = nil) {
        self.code = code
        if let result, result < 0 {
            self.message = "\(message): \(String(cString: strerror(-result)))"
        } else {
            self.message = message
        }
    }

    /// The message.
    package var description: String { message }
}
