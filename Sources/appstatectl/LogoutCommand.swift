import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl logout`.
struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Log the current user out and print the path of the screen shown.",
        discussion: """
            Logging out when nobody is logged in succeeds and says so on standard error. \
            With --json, prints the Logout reply: {"changed": bool, "path": string}.

            EXAMPLE
              $ appstatectl logout
              session/login
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let reply = try options.withClient { try $0.call(Logout.self, .init(tree: options.tree)) }
        if !reply.changed, !options.json { Console.error("nobody was logged in") }
        options.emit(reply, human: reply.path)
    }
}
