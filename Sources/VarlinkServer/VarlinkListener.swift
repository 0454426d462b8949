import Logging
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// A listening ``VarlinkServer``: its socket and its open connections, until it drains.
public final class VarlinkListener: Sendable {
    /// The listening socket's channel.
    let channel: any Channel
    private let registry: ConnectionRegistry
    /// The socket file, removed when draining; nil for an inherited descriptor.
    private let path: String?
    private let logger: Logger

    init(channel: any Channel, registry: ConnectionRegistry, path: String?, logger: Logger) {
        self.channel = channel
        self.registry = registry
        self.path = path
        self.logger = logger
    }

    /// Stops accepting, lets calls in progress finish and closes every connection.
    public func drain() async {
        do {
            try await channel.close()
        } catch {
            logger.warning("the listening socket did not close cleanly: \(error)")
        }
        if let path { unlink(path) }
        let open = registry.channels.withLockedValue { Array($0.values) }
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(DrainEvent())
        }
        for channel in open {
            do {
                try await channel.closeFuture.get()
            } catch {
                logger.warning("a connection did not close cleanly while draining: \(error)")
            }
        }
    }
}
