import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl present ID [--over]`.
struct PresentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present",
        abstract: "Present a controller over the screen and print its path.",
        discussion: """
            Presents one of the controllers the tree file lists under the tree's \
            presentations, over the whole screen, as an app presents a modal screen: what \
            was shown leaves the screen, unless --over keeps it on screen underneath. The \
            tree's root presents it, whichever screen is current. Presenting while \
            something is presented fails: dismiss it first. With --json, prints the Present \
            reply: {"path": string}.

            EXAMPLES (examples/trees/kiosk.yaml)
              $ appstatectl present screensaver
              session/screensaver
              $ appstatectl present screensaver --over
              appstatectl: session already presents session/screensaver (appstatectl dismiss first)
              $ appstatectl dismiss && appstatectl present screensaver --over
              session/attract/hello
              session/screensaver
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Argument(help: "The identifier of the controller to present, one of the tree's presentations.")
    var id: String

    @Flag(name: .customLong("over"), help: "Keep what is shown on screen underneath (over full screen).")
    var over = false

    func validate() throws {
        guard !id.isEmpty else { throw ValidationError("the identifier must not be empty") }
    }

    func run() throws {
        let parameters = Present.Parameters(tree: options.tree, id: id, style: over ? .overFullScreen : nil)
        let reply = try options.withClient { try $0.call(Present.self, parameters) }
        options.emit(reply, human: reply.path)
    }
}
