import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl blank`: blanks the tree's screen by hand, as an idle step's blank does.
struct BlankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blank",
        abstract: "Blank the screen: the kiosk covers its page with black and turns the output off.",
        discussion: """
            The tree's root says blanked until `appstatectl wake`, or the first touch on the \
            kiosk's screen, wakes it; the tree's idle steps go on as they would. Blanking a \
            screen that is blanked already succeeds and says so on standard error. With \
            --json, prints the Blank reply: {"changed": bool}.

            EXAMPLE
              $ appstatectl blank
              blanked
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let reply = try options.withClient { try $0.call(Blank.self, TreeParameters(tree: options.tree)) }
        if !reply.changed, !options.json { Console.error("the screen was blanked already") }
        options.emit(reply, human: "blanked")
    }
}
