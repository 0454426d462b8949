import AppStateIPC
import Glibc
import Logging
import NIOCore
import ServicePorts
import VarlinkServer

/// appstate-kiosk's own Varlink socket, `io.appstate.kiosk`: beside the daemon's, with its
/// mode and group, so that whoever may read the daemon may read what its screen shows.
enum KioskStatusSocket {
    /// Where the socket goes when `--status-socket` does not say: beside the daemon's,
    /// `io.appstate.kiosk`, followed by `.TREE` for a tree named.
    /// - Parameters:
    ///   - daemonSocket: The daemon's socket.
    ///   - tree: The tree shown.
    static func defaultPath(besides daemonSocket: String, tree: String?) -> String {
        let directory = daemonSocket.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (directory.isEmpty ? "." : directory) + "/io.appstate.kiosk" + (tree.map { ".\($0)" } ?? "")
    }

    /// Starts serving the supervisor's status and screenshots.
    /// - Parameters:
    ///   - path: The socket's path.
    ///   - daemonSocket: The daemon's socket, whose mode and group it takes (0660 and none when
    ///     it cannot be read).
    ///   - supervisor: What answers.
    ///   - eventLoop: The event loop of the main thread.
    ///   - runner: The way to the main actor on that loop.
    /// - Returns: The listener, to drain at the end.
    /// - Throws: When the socket cannot be made there.
    static func serve(
        at path: String, besides daemonSocket: String, supervisor: KioskSupervisor, eventLoop: any EventLoop,
        runner: any MainActorRunner
    ) async throws -> VarlinkListener {
        var daemon = stat()
        let known = stat(daemonSocket, &daemon) == 0
        let server = VarlinkServer(
            endpoint: .path(path, mode: known ? daemon.st_mode & 0o777 : 0o660, group: known ? daemon.st_gid : nil),
            eventLoops: eventLoop, processors: [KioskStatusProcessor(supervisor: supervisor, runner: runner)],
            configuration: .init(
                info: ServiceInfo(
                    vendor: "appstate", product: "appstate-kiosk", version: AppStateVersion.current,
                    url: "https://github.com/appstate/appstate"),
                errors: .appState),
            runner: runner, access: ReadOnlyAccess(), metrics: UncountedMetrics(), logger: Logger(label: "appstate-kiosk"))
        return try await server.listen()
    }
}
