import NIOConcurrencyHelpers
import NIOCore

/// The event streams a server has open, so that its shutdown ends each of them, and any
/// opened while it shuts down, rather than leave pages waiting on a server that is gone.
final class OpenEventStreams: Sendable {
    private let state = NIOLockedValueBox<(streams: [ObjectIdentifier: EventStream], ended: Bool)>(([:], false))

    /// Keeps a stream until it closes; ends it at once if the server is shutting down.
    func insert(_ stream: EventStream) {
        let key = ObjectIdentifier(stream)
        let kept = state.withLockedValue { state in
            guard !state.ended else { return false }
            state.streams[key] = stream
            return true
        }
        guard kept else { return stream.end() }
        stream.onClose { [self] in state.withLockedValue { _ = $0.streams.removeValue(forKey: key) } }
    }

    /// Ends every stream, and every one opened from now on.
    /// - Returns: Futures that complete when each stream's connection has closed.
    func endAll() -> [EventLoopFuture<Void>] {
        let streams = state.withLockedValue { state in
            state.ended = true
            return Array(state.streams.values)
        }
        return streams.map { stream in
            stream.end()
            return stream.closeFuture
        }
    }
}
