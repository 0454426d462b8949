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
        try options.changeSession(Logout.self, unchanged: "nobody was logged in")
    }
}
