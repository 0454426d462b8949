import AppStateCore

/// A notification with a Swift type: a value that converts to and from a ``BusNotification``
/// of one name, so that posters and observers need not spell out `userInfo` keys.
///
/// Post one with ``NotificationBus/post(_:object:)`` and observe its type with
/// ``NotificationBus/addObserver(for:object:using:)``.
public protocol BusMessage: Sendable {
    /// The name of the notifications this type converts to and from.
    static var name: NotificationName { get }

    /// Decodes a message from a notification.
    ///
    /// Notifications come from the socket too, so this must reject anything malformed by
    /// returning `nil`, never by trapping.
    /// - Parameter notification: A notification, possibly of another name.
    /// - Returns: `nil` when the notification has another name or its `userInfo` lacks a
    ///   required value.
    init?(_ notification: BusNotification)

    /// The message encoded as the `userInfo` of its notification.
    var userInfo: [String: JSONValue] { get }
}
