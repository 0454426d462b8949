import AppStateCore

/// One notification posted on a ``NotificationBus``, as Foundation's `Notification` is.
public struct BusNotification: Sendable {
    /// What happened.
    public let name: NotificationName
    /// The object that posted the notification, when the poster gave one; observers that
    /// registered for an object only receive notifications whose object is that same instance.
    public let object: (any AnyObject & Sendable)?
    /// The details, restricted to JSON so that any notification can cross the socket unchanged.
    public let userInfo: [String: JSONValue]

    /// Creates a notification.
    /// - Parameters:
    ///   - name: What happened.
    ///   - object: The object posting the notification, if any.
    ///   - userInfo: The details.
    public init(name: NotificationName, object: (any AnyObject & Sendable)? = nil, userInfo: [String: JSONValue] = [:]) {
        self.name = name
        self.object = object
        self.userInfo = userInfo
    }
}
