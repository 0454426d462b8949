/// The errors a server answers on its own, about the connection rather than a call. The
/// hosted interface declares them, so whoever composes the server names them; a server given
/// none closes such a connection without a reply, which is what the protocol allows when an
/// interface declares no error for it.
public struct ConnectionErrors: Sendable {
    /// The connection is over the limit of connections; the parameter is the limit.
    public var tooManyConnections: (@Sendable (Int) -> VarlinkError)?
    /// A message is larger than the limit; the parameter is the limit.
    public var messageTooLarge: (@Sendable (Int) -> VarlinkError)?
    /// A watcher let too many replies queue up; the parameter is how many.
    public var watcherTooSlow: (@Sendable (Int) -> VarlinkError)?

    /// Names the errors; an error not named closes the connection without a reply.
    /// - Parameters:
    ///   - tooManyConnections: Made from the connection limit.
    ///   - messageTooLarge: Made from the message size limit.
    ///   - watcherTooSlow: Made from the number of replies queued.
    public init(
        tooManyConnections: (@Sendable (Int) -> VarlinkError)? = nil, messageTooLarge: (@Sendable (Int) -> VarlinkError)? = nil,
        watcherTooSlow: (@Sendable (Int) -> VarlinkError)? = nil
    ) {
        self.tooManyConnections = tooManyConnections
        self.messageTooLarge = messageTooLarge
        self.watcherTooSlow = watcherTooSlow
    }
}
