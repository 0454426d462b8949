/// The name of a notification on the model's `NotificationBus`, as `Notification.Name` is in Foundation.
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
    /// An on-screen keyboard is about to slide in; see the typed message `KeyboardWillShow` in StateContainers.
    public static let keyboardWillShow: NotificationName = "keyboard.willShow"
    /// An on-screen keyboard has slid in; see the typed message `KeyboardDidShow` in StateContainers.
    public static let keyboardDidShow: NotificationName = "keyboard.didShow"
    /// An on-screen keyboard is about to slide out; see the typed message `KeyboardWillHide` in StateContainers.
    public static let keyboardWillHide: NotificationName = "keyboard.willHide"
    /// An on-screen keyboard has slid out; see the typed message `KeyboardDidHide` in StateContainers.
    public static let keyboardDidHide: NotificationName = "keyboard.didHide"
    /// A visible on-screen keyboard is about to change its frame; see the typed message `KeyboardWillChangeFrame` in StateContainers.
    public static let keyboardWillChangeFrame: NotificationName = "keyboard.willChangeFrame"
    /// A user has logged in; see the typed message `SessionDidLogIn` in StateContainers.
    public static let sessionDidLogIn: NotificationName = "session.didLogIn"
    /// The user has logged out; see the typed message `SessionDidLogOut` in StateContainers.
    public static let sessionDidLogOut: NotificationName = "session.didLogOut"
}
