import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl menu select ID [--path PATH]`.
struct MenuCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menu",
        abstract: "Drive a menu container.",
        discussion: """
            EXAMPLE
              $ appstatectl menu select inbox
              session/home/inbox
            """,
        subcommands: [Select.self]
    )

    /// `appstatectl menu select ID [--path PATH]`.
    struct Select: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "select",
            abstract: "Activate a menu item and print its path.",
            discussion: """
                Without --path, the first menu container of the tree changes. With --json, \
                prints the SelectMenuItem reply: {"path": string}.

                EXAMPLE
                  $ appstatectl menu select dashboard --path session/home
                  session/home/dashboard
                """
        )

        @OptionGroup var options: ConnectionOptions

        @Argument(help: "The identifier of the item.", completion: Completion.menuItems)
        var id: String

        @Option(help: ArgumentHelp("The menu container.", valueName: "path"), completion: Completion.paths(ofType: "MenuController"))
        var path: String?

        func run() throws {
            let parameters = ChildParameters(tree: options.tree, path: path, id: id)
            let reply = try options.withClient { try $0.call(SelectMenuItem.self, parameters) }
            options.emit(reply, human: reply.path)
        }
    }
}
