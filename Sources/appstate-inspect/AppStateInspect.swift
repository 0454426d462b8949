import AppStateCtlKit
import AppStateHTTP
import AppStateInspectKit
import AppStateOptions
import AppStateWebServices
import ArgumentParser
import Foundation
import Logging
import NIOPosix
import ServiceLifecycle

/// `appstate-inspect`: a live view of a daemon's tree in a browser.
@main
struct AppStateInspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstate-inspect",
        abstract: "Show a daemon's tree live in a browser: the window, the tree and a timeline of changes.",
        discussion: """
            Follows the daemon's Watch and serves one page that draws the window as \
            appstatectl tree --svg does, the tree, and the last 1,000 changes, each with the \
            controllers it changed (before and after); click a change to see the window as \
            it was then. Beside the window, the latest screenshot of the tree's \
            appstate-kiosk, taken again when the tree changes. Prints the URL to open, which carries a random token: requests \
            without it are refused, so other users of the machine cannot read the tree \
            through the port. The page only reads. SIGTERM or SIGINT stops it gracefully: it \
            stops listening, ends the pages' event streams and exits 0.

            EXAMPLE
              $ appstate-inspect
              http://127.0.0.1:40213/?token=6f1c…
            """
    )

    @OptionGroup var daemon: DaemonSocketOption

    @Option(help: ArgumentHelp("The tree to follow; the daemon's first tree by default.", valueName: "name"))
    var tree: String?

    @Option(help: ArgumentHelp("Where to serve the page; port 0 picks a free port.", valueName: "host:port"))
    var listen = "127.0.0.1:0"

    func validate() throws {
        do {
            _ = try ListenAddress(parsing: listen)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let address = try ListenAddress(parsing: listen)
        if !address.isLoopback {
            FileHandle.standardError.write(
                Data("appstate-inspect: \(address.host) is not a loopback address: other machines can reach the page (with the token)\n".utf8))
        }
        let socketPath: String
        do {
            socketPath = try daemon.path()
        } catch {
            FileHandle.standardError.write(Data("appstate-inspect: \(error.message)\n".utf8))
            throw ExitCode(error.exitCode)
        }
        let hub = InspectorHub()
        let server = try InspectorServer(
            address: address, token: AccessToken(), hub: hub, screenshots: InspectorScreenshots(socketPath: socketPath, tree: tree),
            group: MultiThreadedEventLoopGroup.singleton)
        let follower = WatchFollower(socketPath: socketPath, tree: tree) { hub.follow($0, socketPath: socketPath) }
        // The server last: a graceful shutdown stops services in reverse, so that it stops
        // listening and ends the pages' streams first.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: follower, serviceName: "WatchFollower"),
                    .init(service: StatsFollower(socketPath: socketPath, tree: tree, hub: hub), serviceName: "StatsFollower"),
                    // The URL once SIGTERM is trapped: whoever reads it may stop the inspector.
                    .init(
                        service: server.service {
                            print(server.url)
                            fflush(nil)
                        }, serviceName: "HTTPServerService"),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: Logger(label: "appstate-inspect")
            ))
        try await group.run()
    }
}
