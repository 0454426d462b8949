import AppStateCtlKit
import AppStateIPC
import NIOPosix
import ServiceLifecycle

/// Reads what `GetStats` says of the followed tree every second, until the group's graceful
/// shutdown, and publishes it to an ``InspectorHub``: where its idle steps stand, which moves
/// without events, so `Watch` cannot tell it, and its front-ends, whose reports `Watch` tells
/// only when they change, not as a list to start from.
public struct StatsFollower: Service {
    /// How long the daemon may take to answer.
    static let timeout = Duration.seconds(5)

    private let socketPath: String
    private let tree: String?
    private let hub: InspectorHub

    /// Creates a follower; nothing happens before ``run()``.
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - tree: The tree; the daemon's first when `nil`.
    ///   - hub: Where to publish.
    public init(socketPath: String, tree: String?, hub: InspectorHub) {
        self.socketPath = socketPath
        self.tree = tree
        self.hub = hub
    }

    /// Reads every second until the graceful shutdown (or cancellation).
    public func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // The client's call blocks: on the pool, not on a thread of Swift's.
                try? await NIOThreadPool.singleton.runIfActive { read() }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func read() {
        // A daemon that cannot be reached is the Watch follower's to report.
        guard let stats = try? VarlinkClient(path: socketPath, timeout: Self.timeout).call(GetStats.self, .init(tree: tree)) else {
            return
        }
        let name = tree ?? stats.trees.first
        hub.publishIdle(stats.idle.first { $0.tree == name }, inhibitors: stats.inhibitors.filter { $0.tree == name })
        hub.publishFrontEnds(stats.frontEnds.filter { $0.tree == name })
    }
}
