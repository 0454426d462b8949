import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl keyboard request show|hide`: asks the on-screen keyboard appstated follows to
/// slide in or out.
struct KeyboardRequestCommand: ParsableCommand {
    /// What the keyboard is asked to do.
    enum Visibility: String, CaseIterable, ExpressibleByArgument {
        /// Slide in.
        case show
        /// Slide out.
        case hide
    }

    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Ask the on-screen keyboard appstated follows to slide in or out.",
        discussion: """
            Asks the keyboard appstated follows with --follow-osk (squeekboard, KWin's virtual \
            keyboard or Onboard), as a front-end does when a text field gains or loses focus, \
            and returns once the keyboard has answered. What the keyboard then does reaches the \
            tree through appstated, as keyboard show and keyboard hide would change it. Prints \
            nothing; fails when appstated follows no keyboard or the keyboard refuses.

            EXAMPLES
              $ appstatectl keyboard request show
              $ appstatectl keyboard request hide
            """
    )

    @Argument(help: ArgumentHelp("show or hide.", valueName: "show|hide"))
    var visibility: Visibility

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let parameters = RequestKeyboard.Parameters(tree: options.tree, visible: visibility == .show)
        let reply = try options.withClient { try $0.call(RequestKeyboard.self, parameters) }
        options.emit(reply, human: nil)
    }
}
