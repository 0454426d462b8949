import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl activity`: tells the daemon that someone used the screen.
struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Report that someone used the screen: the tree's idle clock starts again.",
        discussion: """
            Whatever an idle step of the tree file showed is taken away, and the idle steps \
            count again from now. A front-end calls io.appstate.ReportActivity on every \
            touch itself; this command is for scripts and tests. Prints nothing.

            EXAMPLE
              $ appstatectl activity
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let reply = try options.withClient { try $0.call(ReportActivity.self, .init(tree: options.tree)) }
        options.emit(reply, human: nil)
    }
}
