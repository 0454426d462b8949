/// The name of a notification on a ``NotificationBus``, as `Notification.Name` is in Foundation.
///
/// Names are plain strings so that a notification can cross the socket and be posted by
/// `appstatectl post NAME`; the well-known ones use a `subsystem.event` form.
public struct NotificationName: Hashable, Sendable, Codable, ExpressibleByStringLiteral, RawRepresentable,
    CustomStringConvertible
{
    /// The name as a string, e.g. `keyboard.willShow`.
    public let rawValue: String

    /// Creates a name from its string.
    /// - Parameter rawValue: The name, e.g. `keyboard.willShow`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a name from its string.
    /// - Parameter rawValue: The name, e.g. `keyboard.willShow`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a name from a string literal, so that `"session.didLogIn"` can stand for a name.
    /// - Parameter value: The name.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The name as a string.
    public var description: String { rawValue }
}

extension NotificationName {
    /// An on-screen keyboard is about to slide in; see ``KeyboardWillShow``.
    public static let keyboardWillShow: NotificationName = "keyboard.willShow"
    /// An on-screen keyboard has slid in; see ``KeyboardDidShow``.
    public static let keyboardDidShow: NotificationName = "keyboard.didShow"
    /// An on-screen keyboard is about to slide out; see ``KeyboardWillHide``.
    public static let keyboardWillHide: NotificationName = "keyboard.willHide"
    /// An on-screen keyboard has slid out; see ``KeyboardDidHide``.
    public static let keyboardDidHide: NotificationName = "keyboard.didHide"
    /// A visible on-screen keyboard is about to change its frame; see ``KeyboardWillChangeFrame``.
    public static let keyboardWillChangeFrame: NotificationName = "keyboard.willChangeFrame"
    /// A user has logged in; see ``SessionDidLogIn``.
    public static let sessionDidLogIn: NotificationName = "session.didLogIn"
    /// The user has logged out; see ``SessionDidLogOut``.
    public static let sessionDidLogOut: NotificationName = "session.didLogOut"
}
