import Varlink

extension ConnectionErrors {
    /// `io.appstate`'s connection errors, which its clients rely on: the daemon's, and those of
    /// appstate's other servers (appstate-kiosk's status socket).
    package static let appState = ConnectionErrors(
        tooManyConnections: { .tooManyConnections(limit: $0) },
        messageTooLarge: { .messageTooLarge(limit: $0) },
        watcherTooSlow: { .watcherTooSlow(queued: $0) }
    )
}
