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

    /// The message as ``init(_:)`` would decode it from its ``userInfo``, or `nil` when that
    /// fails: what a typed observer receives when the message itself is posted, so that the bus
    /// need not build `userInfo` only to decode it again.
    ///
    /// The default takes that round trip. A type whose decoding cleans values up (clamps a
    /// number, rejects a non-finite one) should clean them the same way here, without it; one
    /// whose decoding gives back exactly what it encoded returns itself.
    var roundTripped: Self? { get }
}

extension BusMessage {
    /// The message decoded from a notification carrying its ``userInfo``.
    public var roundTripped: Self? {
        Self(BusNotification(name: Self.name, userInfo: userInfo))
    }
}
