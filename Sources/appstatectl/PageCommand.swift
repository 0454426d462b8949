import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl page next|previous|INDEX|ID [--path PATH]`.
struct PageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract: "Show another page of a paginated container and print its path.",
        discussion: """
            PAGE is next, previous, an index counted from 0, or a page's identifier. \
            Without --path, the first paginated container of the tree changes. Moving past \
            the last or first page fails and changes nothing. With --json, prints the \
            SetPage reply: {"index": int, "path": string}.

            EXAMPLES
              $ appstatectl page next
              session/home/pages/activity
              $ appstatectl page settings --path session/home/pages
              session/home/pages/settings
              $ appstatectl page 42
              appstatectl: session/home/pages has 3 pages; 42 is out of range
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Argument(
        help: ArgumentHelp("next, previous, an index from 0, or a page identifier.", valueName: "page"),
        completion: Completion.pages,
        transform: PageTarget.parse
    )
    var target: SetPage.Target

    @Option(help: ArgumentHelp("The paginated container.", valueName: "path"), completion: Completion.paths(ofType: "PaginatedController"))
    var path: String?

    func run() throws {
        let parameters = SetPage.Parameters(tree: options.tree, path: path, target: target)
        let reply = try options.withClient { try $0.call(SetPage.self, parameters) }
        options.emit(reply, human: reply.path)
    }
}
