import AppStateDaemon
import AppStateIPC
import ArgumentParser
import TreeFiles

/// `appstated`: parses its options and runs the daemon; everything else lives in AppStateDaemon.
@main
struct AppStated: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstated",
        abstract: "Hosts trees of headless container controllers and publishes them over Varlink.",
        discussion: """
            Without --tree-file it runs \(DaemonConfiguration.installedTreeFile) when that file exists (the \
            packages install it), else the embedded default tree. Under systemd it takes its \
            socket from socket activation (named "varlink") and its state from $STATE_DIRECTORY.
            """,
        version: AppStateVersion.current
    )

    @OptionGroup(title: "Socket and access")
    var socket: SocketOptions

    @OptionGroup(title: "Tree file and state")
    var files: FileOptions

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    @OptionGroup(title: "Following the system")
    var followers: FollowerOptions

    @Option(help: ArgumentHelp("Validate a tree file, report its errors by their place in the file, and exit.", valueName: "file"))
    var check: String?

    /// Parses the command line, taking `--follow-output NAME` and `--follow-output=NAME` as
    /// `--follow-output --output NAME`: the flag's optional value is the word after it when
    /// that is no option, since appstated takes no other arguments.
    static func main() {
        main(FollowOutputArguments.normalized(Array(CommandLine.arguments.dropFirst())))
    }

    // Synchronous: the main thread becomes the daemon's event loop, which an async `main`
    // would have handed to libdispatch instead.
    func run() throws {
        if let check {
            let report = MainActor.assumeIsolated { TreeFileCheck(path: check) }
            print(report.text)
            if !report.isValid { throw ExitCode(ExitStatus.dataError.code) }
            return
        }
        let configuration = DaemonConfiguration(
            socket: socket.configuration, files: files.configuration, limits: limits.limits, followers: followers.configuration)
        try Daemon.main(configuration)
    }
}
