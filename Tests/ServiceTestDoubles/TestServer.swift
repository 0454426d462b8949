import AppStateIPC
import ServicePorts
import VarlinkServer

extension ConnectionErrors {
    /// The daemon's connection errors, `io.appstate`'s, for tests of the server alone.
    package static let appState = ConnectionErrors(
        tooManyConnections: { .tooManyConnections(limit: $0) },
        messageTooLarge: { .messageTooLarge(limit: $0) },
        watcherTooSlow: { .watcherTooSlow(queued: $0) }
    )
}
