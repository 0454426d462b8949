import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl wake`: wakes a blanked screen.
struct WakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake",
        abstract: "Wake a blanked screen: the kiosk turns the output on and shows its page again.",
        discussion: """
            Waking counts as someone using the screen: the tree's idle clock starts again. \
            Waking a screen that is not blanked succeeds and says so on standard error. \
            With --json, prints the Wake reply: {"changed": bool}.

            EXAMPLE
              $ appstatectl wake
              awake
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let reply = try options.withClient { try $0.call(Wake.self, TreeParameters(tree: options.tree)) }
        if !reply.changed, !options.json { Console.error("the screen was not blanked") }
        options.emit(reply, human: "awake")
    }
}
