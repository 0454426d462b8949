import AppStateCore

/// A user has logged in, posted as `session.didLogIn` with the user's name under `user`.
public struct SessionDidLogIn: BusMessage, Hashable {
    /// `NotificationName/sessionDidLogIn`.
    public static let name = NotificationName.sessionDidLogIn

    /// Who logged in.
    public let user: String

    /// Creates a message.
    /// - Parameter user: Who logged in.
    public init(user: String) {
        self.user = user
    }

    /// Decodes a message.
    /// - Parameter notification: A notification, possibly of another name.
    /// - Returns: `nil` when the name differs or `user` is missing or not a string.
    public init?(_ notification: BusNotification) {
        guard notification.name == Self.name, let user = notification.userInfo["user"]?.stringValue else {
            return nil
        }
        self.user = user
    }

    /// `["user": user]`.
    public var userInfo: [String: JSONValue] { ["user": .string(user)] }

    /// The message itself: decoding gives back any user name as it was.
    public var roundTripped: Self? { self }
}

/// The user has logged out, posted as `session.didLogOut`, optionally naming who under `user`.
public struct SessionDidLogOut: BusMessage, Hashable {
    /// `NotificationName/sessionDidLogOut`.
    public static let name = NotificationName.sessionDidLogOut

    /// Who logged out, when the poster said; a logout means the same whoever it was, so
    /// observers must not depend on it.
    public let user: String?

    /// Creates a message.
    /// - Parameter user: Who logged out, if known.
    public init(user: String? = nil) {
        self.user = user
    }

    /// Decodes a message; a `user` that is not a string is ignored rather than failing the
    /// logout, which must happen regardless.
    /// - Parameter notification: A notification, possibly of another name.
    /// - Returns: `nil` only when the name differs.
    public init?(_ notification: BusNotification) {
        guard notification.name == Self.name else { return nil }
        user = notification.userInfo["user"]?.stringValue
    }

    /// `["user": user]` when the user is known, else empty.
    public var userInfo: [String: JSONValue] {
        guard let user else { return [:] }
        return ["user": .string(user)]
    }

    /// The message itself: decoding gives back the user name, or its absence, as it was.
    public var roundTripped: Self? { self }
}
