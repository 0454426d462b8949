import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl dismiss`.
struct DismissCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Dismiss what is presented and print the path of the screen shown.",
        discussion: """
            Dismisses the controller that `appstatectl present` presented, and what it \
            covered is on screen again. Dismissing when nothing is presented succeeds and \
            says so on standard error. With --json, prints the Dismiss reply: \
            {"changed": bool, "path": string}.

            EXAMPLE (examples/trees/kiosk.yaml)
              $ appstatectl dismiss
              session/attract/hello
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let reply = try options.withClient { try $0.call(Dismiss.self, TreeParameters(tree: options.tree)) }
        if !reply.changed, !options.json { Console.error("nothing was presented") }
        options.emit(reply, human: reply.path)
    }
}
