import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import ArgumentParser

/// `appstatectl status`: where the daemon is and how it is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show where appstated listens, its version, uptime, trees, connections and watchers.",
        discussion: """
            Exits 69 with the socket path and the reason when appstated cannot be reached, \
            so it also serves as a health check.

            EXAMPLE
              $ appstatectl status

            """ + StatusRenderer.example
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try options.withClient { client in
            let info = try client.call(GetInfo.self, .init())
            let stats = try client.call(GetStats.self, .init(tree: options.tree))
            if options.json {
                Console.output(StatusRenderer.json(stats: stats, info: info))
            } else {
                Console.output(StatusRenderer(style: .standardOutput).render(stats: stats, info: info, socketPath: client.path))
            }
        }
    }
}
