/// A misuse that UIKit would only log (an unbalanced appearance call, a view added to
/// itself): the call does nothing and this warning goes to ``handler``.
public struct ContainmentWarning: Hashable, Sendable, CustomStringConvertible {
    /// The identifier of the controller the call was made on, when there was one.
    public let identifier: String?
    /// What was wrong, in words.
    public let message: String

    public var description: String {
        identifier.map { "\($0): \(message)" } ?? message
    }

    /// Where warnings go. The model does no I/O itself: the daemon points this at its logger,
    /// tests at a list they inspect. Defaults to discarding them.
    @MainActor public static var handler: @MainActor (ContainmentWarning) -> Void = { _ in }

    @MainActor static func emit(_ message: String, on identifier: String? = nil) {
        handler(ContainmentWarning(identifier: identifier, message: message))
    }
}
