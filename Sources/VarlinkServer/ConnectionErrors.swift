import AppStateIPC

/// The errors a server answers on its own, about the connection rather than a call: the
/// hosted interface declares them, so the composition names them.
package struct ConnectionErrors: Sendable {
    /// The connection is over the limit of connections; the parameter is the limit.
    package var tooManyConnections: @Sendable (Int) -> VarlinkError
    /// A message is larger than the limit; the parameter is the limit.
    package var messageTooLarge: @Sendable (Int) -> VarlinkError
    /// A watcher let too many replies queue up; the parameter is how many.
    package var watcherTooSlow: @Sendable (Int) -> VarlinkError

    /// Names the errors.
    /// - Parameters:
    ///   - tooManyConnections: Made from the connection limit.
    ///   - messageTooLarge: Made from the message size limit.
    ///   - watcherTooSlow: Made from the number of replies queued.
    package init(
        tooManyConnections: @escaping @Sendable (Int) -> VarlinkError, messageTooLarge: @escaping @Sendable (Int) -> VarlinkError,
        watcherTooSlow: @escaping @Sendable (Int) -> VarlinkError
    ) {
        self.tooManyConnections = tooManyConnections
        self.messageTooLarge = messageTooLarge
        self.watcherTooSlow = watcherTooSlow
    }
}
