import AppStateCtlKit
import AppStateIPC
import ArgumentParser
import Glibc

/// `appstatectl inhibit`: runs a command while holding the tree's idle steps back, as
/// `systemd-inhibit` does for logind's.
struct InhibitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inhibit",
        abstract: "Run a command while no idle step of the tree fires, and exit with its status.",
        discussion: """
            Holds an io.appstate.Inhibit for as long as the command runs, on a connection \
            the command does not inherit: when the command ends (or appstatectl is killed) \
            the connection closes and the tree's idle clock starts again from then. With \
            appstated --follow-logind, the daemon also holds a logind idle inhibitor \
            meanwhile, so logind's IdleAction waits too. Exits with the command's status, \
            128 plus the signal's number when a signal ended it, 127 when it cannot be \
            found and 126 when it cannot be run.

            EXAMPLE
              $ appstatectl inhibit --why "card payment" -- ./take-payment --amount 12.50
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Option(help: "Why the idle steps wait, as appstatectl status shows it.")
    var why: String

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command to run, and its arguments.", valueName: "command"))
    var command: [String] = []

    /// The command and its arguments, without the `--` before them.
    private var arguments: [String] { command.first == "--" ? Array(command.dropFirst()) : command }

    func validate() throws {
        guard !arguments.isEmpty else { throw ValidationError("give the command to run after --") }
    }

    func run() throws {
        let arguments = self.arguments
        let status = try options.withClient { client in
            var stream = try client.stream(method: Inhibit.name, parameters: Inhibit.Parameters(tree: options.tree, why: why).parameters)
            _ = try stream.next(as: Inhibit.self)
            return Self.runToEnd(arguments)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs a command with this process's standard streams and waits for it.
    /// - Returns: Its exit status, as a shell reports it.
    private static func runToEnd(_ arguments: [String]) -> Int32 {
        var pid = pid_t()
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        guard let file = argv[0] else { return ExitStatus.systemError.code }
        let result = posix_spawnp(&pid, file, nil, nil, argv, environ)
        guard result == 0 else {
            Console.error("cannot run \(arguments[0]): \(String(cString: strerror(result)))")
            return result == ENOENT ? 127 : 126
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return ExitStatus.systemError.code }
        }
        // WIFEXITED and WTERMSIG are macros Swift cannot call.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
