import AppStateCore

/// One notification posted on a ``NotificationBus``, as Foundation's `Notification` is.
public struct BusNotification: Sendable {
    /// What happened.
    public let name: NotificationName
    /// The object that posted the notification, when the poster gave one; observers that
    /// registered for an object only receive notifications whose object is that same instance.
    public let object: (any AnyObject & Sendable)?
    /// The message the notification was posted as (``NotificationBus/post(_:object:)``), so that
    /// typed observers can take it as it is; `nil` for a notification posted by name. A class
    /// reference, not an optional existential, which every post by name would destroy through
    /// its type's witnesses, with releases of its own.
    @usableFromInline let carried: CarriedMessage?
    /// What the notification was posted with; empty when it carries a message.
    @usableFromInline let postedUserInfo: [String: JSONValue]

    /// The details, restricted to JSON so that any notification can cross the socket unchanged.
    ///
    /// For a notification posted as a message, this is the message's `userInfo`, built anew on
    /// each read: typed observers take the message itself, and the untyped observers that read
    /// this are too rare to build it for at every post.
    public var userInfo: [String: JSONValue] { carried?.userInfo ?? postedUserInfo }

    /// Creates a notification.
    /// - Parameters:
    ///   - name: What happened.
    ///   - object: The object posting the notification, if any.
    ///   - userInfo: The details.
    @inlinable
    public init(name: NotificationName, object: (any AnyObject & Sendable)? = nil, userInfo: [String: JSONValue] = [:]) {
        self.name = name
        self.object = object
        self.postedUserInfo = userInfo
        self.carried = nil
    }

    /// Creates the notification a message is posted as, leaving its `userInfo` unbuilt.
    @inlinable
    init<M: BusMessage>(_ message: M, object: (any AnyObject & Sendable)?) {
        self.name = M.name
        self.object = object
        self.postedUserInfo = [:]
        self.carried = Carried(message)
    }
}

/// A posted message, as a ``BusNotification`` carries it: a ``Carried`` of the message's type,
/// which a typed observer casts to, one class cast and no existential box to allocate.
@usableFromInline
class CarriedMessage: @unchecked Sendable {
    @usableFromInline init() {}

    /// The message's `userInfo`.
    @usableFromInline var userInfo: [String: JSONValue] { [:] }
}

/// A posted message of one type. Immutable, and its message is `Sendable`.
@usableFromInline
final class Carried<Message: BusMessage>: CarriedMessage, @unchecked Sendable {
    @usableFromInline let message: Message

    @inlinable init(_ message: Message) {
        self.message = message
        super.init()
    }

    @usableFromInline override var userInfo: [String: JSONValue] { message.userInfo }
}
