import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl login USER [--switch]`.
struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log a user in and print the path of the screen shown.",
        discussion: """
            Logging in as the user already logged in changes nothing. Logging in while \
            someone else is logged in fails unless --switch is given.

            EXAMPLES
              $ appstatectl login ada
              session/home
              $ appstatectl login bob
              appstatectl: ada is already logged in (use --switch to log in as bob)
              $ appstatectl login bob --switch
              session/home
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Argument(help: "The user to log in.")
    var user: String

    @Flag(name: .customLong("switch"), help: "Replace the user logged in, if it is someone else.")
    var switching = false

    func validate() throws {
        guard !user.isEmpty else { throw ValidationError("the user must not be empty") }
    }

    func run() throws {
        let parameters = Login.Parameters(tree: options.tree, user: user, switching: switching)
        let reply = try options.withClient { try $0.call(Login.self, parameters) }
        options.emit(reply, human: reply.path)
    }
}
