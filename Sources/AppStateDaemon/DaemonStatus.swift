import VarlinkServer

/// The daemon's `STATUS=` line for systemd, as `systemctl status` shows it.
struct DaemonStatus: Sendable {
    /// The trees and their watchers.
    let trees: DaemonTrees
    /// The socket and its connections.
    let server: VarlinkServer

    /// Where clients connect, for the log and the status.
    var socketDescription: String {
        server.endpoint.path ?? "socket passed by systemd"
    }

    /// The line as it is now.
    @MainActor var line: String {
        "Serving \(trees.host.treeNames.count) tree(s) on \(socketDescription); \(server.connectionCount) connection(s), \(trees.processor.watcherCount) watcher(s)"
    }
}
