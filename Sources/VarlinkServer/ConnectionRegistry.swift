import NIOConcurrencyHelpers
import NIOCore

/// The open connections, so that the server can drain them when the daemon stops.
final class ConnectionRegistry: Sendable {
    /// Written by the trackers on the event loops, read when draining: a pthread mutex
    /// because ThreadSanitizer cannot see `Synchronization.Mutex` on Linux (see
    /// ``ConnectionCounter``).
    let channels = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

    /// A handler that keeps its channel in the registry while it is open.
    func tracker() -> Tracker {
        Tracker(registry: self)
    }

    final class Tracker: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let registry: ConnectionRegistry

        init(registry: ConnectionRegistry) {
            self.registry = registry
        }

        func channelActive(context: ChannelHandlerContext) {
            let channel = context.channel
            registry.channels.withLockedValue { $0[ObjectIdentifier(channel)] = channel }
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            let channel = context.channel
            registry.channels.withLockedValue { $0[ObjectIdentifier(channel)] = nil }
            context.fireChannelInactive()
        }
    }
}
