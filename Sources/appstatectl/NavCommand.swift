import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl nav push ID | nav pop [--path PATH]`.
struct NavCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nav",
        abstract: "Push onto or pop off a navigation container's stack.",
        discussion: """
            EXAMPLES
              $ appstatectl nav push thread-42
              session/home/inbox/thread-42
              $ appstatectl nav pop
              session/home/inbox/messages
            """,
        subcommands: [Push.self, Pop.self]
    )

    /// `--path`, shared by `nav push` and `nav pop`.
    struct Target: ParsableArguments {
        @Option(
            help: ArgumentHelp("The navigation container; the first one of the tree by default.", valueName: "path"),
            completion: Completion.paths(ofType: "NavigationController")
        )
        var path: String?
    }

    /// `appstatectl nav push ID [--path PATH]`.
    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Push a controller and print the path of the new top.",
            discussion: """
                With --json, prints the Push reply: {"path": string}.

                EXAMPLE
                  $ appstatectl nav push thread-42 --path session/home/inbox
                  session/home/inbox/thread-42
                """
        )

        @OptionGroup var options: ConnectionOptions

        @Argument(help: "The identifier of the controller to push.")
        var id: String

        @OptionGroup var target: Target

        func run() throws {
            let parameters = ChildParameters(tree: options.tree, path: target.path, id: id)
            let reply = try options.withClient { try $0.call(AppStateIPC.Push.self, parameters) }
            options.emit(reply, human: reply.path)
        }
    }

    /// `appstatectl nav pop [--path PATH]`.
    struct Pop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pop",
            abstract: "Pop the top controller and print the path of the new top.",
            discussion: """
                The root of the stack is never popped: popping it changes nothing and \
                prints its path. With --json, prints the Pop reply: {"path": string}.

                EXAMPLE
                  $ appstatectl nav pop
                  session/home/inbox/messages
                """
        )

        @OptionGroup var options: ConnectionOptions

        @OptionGroup var target: Target

        func run() throws {
            let parameters = AppStateIPC.Pop.Parameters(tree: options.tree, path: target.path)
            let reply = try options.withClient { try $0.call(AppStateIPC.Pop.self, parameters) }
            options.emit(reply, human: reply.path)
        }
    }
}
