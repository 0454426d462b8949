import AppStateDaemon
import AppStateFollowers
import AppStateIPC
import ArgumentParser
import StateContainers
import TreeFiles
import VarlinkServer

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

    @Option(help: "The socket to listen on (default: /run/appstate/io.appstate as root, else $XDG_RUNTIME_DIR/appstate/io.appstate).")
    var socket: String?

    @Option(
        name: .customLong("state-dir"),
        help: "Where restorable state is kept (default: $STATE_DIRECTORY, else /var/lib/appstate as root, else $XDG_STATE_HOME/appstate).")
    var stateDir: String?

    @Option(name: .customLong("socket-mode"), help: "The octal mode of the socket the daemon creates.")
    var socketMode = "0660"

    @Option(
        name: .customLong("tree-file"),
        help: "A YAML or JSON tree file to host (default: \(DaemonConfiguration.installedTreeFile) when it exists, else the embedded default tree).")
    var treeFile: String?

    @Option(help: ArgumentHelp("Validate a tree file, report its errors by their place in the file, and exit.", valueName: "file"))
    var check: String?

    @Option(name: .customLong("allow-group"), help: "A group whose members may change state (repeatable; default: appstate).")
    var allowGroups: [String] = []

    @Option(name: .customLong("max-connections"), help: "Connections beyond this many are refused.")
    var maxConnections = ServerLimits().maximumConnections

    @Option(
        name: .customLong("max-connections-per-user"),
        help: "Connections of one user beyond this many are refused; root and the daemon's own user are not counted.")
    var maxConnectionsPerUser = ServerLimits().maximumConnectionsPerUser

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a connection that sends nothing for this many seconds while nothing is in flight; 0 never does. Watch streams are never idle.",
            valueName: "seconds"))
    var idleTimeout = 300.0

    @Option(name: .customLong("max-message-size"), help: "The largest message accepted, in bytes.")
    var maxMessageSize = ServerLimits().maximumMessageSize

    @Flag(
        name: .customLong("follow-logind"),
        help: "Follow systemd-logind: who is logged in on the seat, and the session's lock, drive every tree's login container.")
    var followLogind = false

    @Option(help: "The logind seat to follow with --follow-logind.")
    var seat = "seat0"

    @Flag(
        name: .customLong("follow-osk"),
        help: "Follow the on-screen keyboard on the session bus: squeekboard's, KWin's or Onboard's, whichever is there.")
    var followOSK = false

    @Option(
        name: .customLong("osk-source"),
        help: ArgumentHelp("Follow only this on-screen keyboard with --follow-osk.", valueName: "squeekboard|kwin|onboard"))
    var oskSource: String?

    @Flag(
        name: .customLong("follow-output"),
        help: ArgumentHelp(
            "Follow the Wayland compositor's output: every tree's window takes its logical size (--follow-output NAME, or --output NAME, for that output; the first output otherwise)."
        ))
    var followOutput = false

    @Option(name: .customLong("output"), help: ArgumentHelp("The Wayland output to follow with --follow-output.", valueName: "name"))
    var output: String?

    @Option(
        name: .customLong("osk-height"),
        help: ArgumentHelp("The on-screen keyboard's height (default: squeekboard's own rule for the window).", valueName: "points"))
    var oskHeight: Double?

    // For tests: how long a half-sent message may wait for the rest (default 10 s). Hidden,
    // because nothing but a test needs another value.
    @Option(name: .customLong("partial-message-timeout"), help: ArgumentHelp(visibility: .hidden))
    var partialMessageTimeout: Double?

    func validate() throws {
        guard let mode = UInt32(socketMode, radix: 8), mode <= 0o777 else {
            throw ValidationError("--socket-mode must be an octal mode such as 0660, not \(socketMode)")
        }
        guard maxConnections > 0, maxConnectionsPerUser > 0, maxMessageSize > 0 else {
            throw ValidationError("--max-connections, --max-connections-per-user and --max-message-size must be positive")
        }
        guard idleTimeout >= 0, idleTimeout <= 86400 else {
            throw ValidationError("--idle-timeout must be between 0 and 86400 seconds")
        }
        if let problem = HostedTreeSpec.seatNameProblem(seat) {
            throw ValidationError("--seat: \(problem)")
        }
        if let oskSource, OnScreenKeyboardKind(rawValue: oskSource) == nil {
            throw ValidationError("--osk-source must be squeekboard, kwin or onboard, not \(oskSource)")
        }
        if let output, let problem = HostedTreeSpec.outputNameProblem(output) {
            throw ValidationError("--output: \(problem)")
        }
        if let oskHeight, !(oskHeight > 0 && oskHeight <= 1_000_000) {
            throw ValidationError("--osk-height must be above 0 and at most 1000000 points")
        }
        if let partialMessageTimeout, !(partialMessageTimeout > 0 && partialMessageTimeout <= 3600) {
            throw ValidationError("--partial-message-timeout must be between 0 and 3600 seconds")
        }
    }

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
            if !report.isValid { throw ExitCode(65) }
            return
        }
        var configuration = DaemonConfiguration()
        configuration.socketPath = socket
        configuration.stateDirectory = stateDir
        configuration.socketMode = UInt32(socketMode, radix: 8) ?? 0o660
        configuration.treeFile = DaemonConfiguration.treeFile(named: treeFile)
        if !allowGroups.isEmpty { configuration.allowedGroups = allowGroups }
        configuration.limits.maximumConnections = maxConnections
        configuration.limits.maximumConnectionsPerUser = maxConnectionsPerUser
        configuration.limits.idleTimeout = idleTimeout > 0 ? .milliseconds(Int(idleTimeout * 1000)) : nil
        configuration.limits.maximumMessageSize = maxMessageSize
        if let partialMessageTimeout { configuration.limits.partialMessageTimeout = .milliseconds(Int(partialMessageTimeout * 1000)) }
        configuration.followLogind = followLogind
        configuration.seat = seat
        configuration.followOnScreenKeyboard = followOSK
        configuration.onScreenKeyboardHeight = oskHeight
        configuration.onScreenKeyboardSource = oskSource.flatMap(OnScreenKeyboardKind.init(rawValue:))
        configuration.followOutput = followOutput || output != nil
        configuration.output = output
        try Daemon.main(configuration)
    }
}
