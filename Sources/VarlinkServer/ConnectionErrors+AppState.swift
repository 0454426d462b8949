import AppStateIPC

extension ConnectionErrors {
    /// `io.appstate`'s connection errors: the daemon's, and those of servers built on the same
    /// stack whose interfaces declare none of their own (the certification's).
    package static let appState = ConnectionErrors(
        tooManyConnections: { .tooManyConnections(limit: $0) },
        messageTooLarge: { .messageTooLarge(limit: $0) },
        watcherTooSlow: { .watcherTooSlow(queued: $0) }
    )
}
