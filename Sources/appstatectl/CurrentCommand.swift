import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl current [PATH]`: which child is current.
struct CurrentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "current",
        abstract: "Print the full path of the current child.",
        discussion: """
            Without PATH, follows the current child of each container from the root and \
            prints the deepest one: the screen a front-end should show. With the path of a \
            container, prints the full path of the child it shows. With --json, prints the \
            GetCurrent reply: {"path": string, "node": Node}.

            EXAMPLES
              $ appstatectl current
              session/home/pages/overview
              $ appstatectl current session
              session/home
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Argument(help: "The path of a container, e.g. session/home.", completion: Completion.containers)
    var path: String?

    func run() throws {
        let reply = try options.withClient { try $0.call(GetCurrent.self, .init(tree: options.tree, path: path)) }
        options.emit(reply, human: reply.path)
    }
}
