import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import ArgumentParser

/// `appstatectl keyboard show|hide|request`: an on-screen keyboard sliding in and out.
struct KeyboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyboard",
        abstract: "Slide an on-screen keyboard in or out.",
        discussion: """
            show and hide post the keyboard notifications on the tree's bus, as an input \
            method would: keyboard-aware containers on screen shrink their content's visible \
            area by the overlap (see the insets in appstatectl tree). request asks the real \
            on-screen keyboard that appstated follows (--follow-osk) to slide in or out.

            EXAMPLES
              appstatectl keyboard show --height 336
              appstatectl keyboard hide --duration 0
              appstatectl keyboard request show
            """,
        subcommands: [Show.self, Hide.self, KeyboardRequestCommand.self]
    )

    /// `appstatectl keyboard show [--height H] [--duration S]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Slide the keyboard in from the bottom edge of the window.",
            discussion: """
                EXAMPLE
                  $ appstatectl keyboard show --height 336 --duration 0.3
                  $ appstatectl tree | grep inset
                  │   └── login-form Controller 1280×800+0+0, inset bottom 336 ◀ current
                """
        )

        @OptionGroup var options: ConnectionOptions

        @Option(help: ArgumentHelp("The keyboard's height in points.", valueName: "points"))
        var height: Double = 300

        @OptionGroup var animation: AnimationOptions

        func validate() throws {
            guard height >= 0, height <= AppStateLimits.maximumLength else {
                throw ValidationError(
                    "--height must be from 0 to \(Formatting.number(AppStateLimits.maximumLength)) points, not \(Formatting.number(height))"
                )
            }
        }

        func run() throws {
            let parameters = ShowKeyboard.Parameters(tree: options.tree, height: height, duration: animation.duration)
            let reply = try options.withClient { try $0.call(ShowKeyboard.self, parameters) }
            options.emit(reply, human: nil)
        }
    }

    /// `appstatectl keyboard hide [--duration S]`.
    struct Hide: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hide",
            abstract: "Slide the keyboard out.",
            discussion: """
                EXAMPLE
                  appstatectl keyboard hide
                """
        )

        @OptionGroup var options: ConnectionOptions

        @OptionGroup var animation: AnimationOptions

        func run() throws {
            let parameters = HideKeyboard.Parameters(tree: options.tree, duration: animation.duration)
            let reply = try options.withClient { try $0.call(HideKeyboard.self, parameters) }
            options.emit(reply, human: nil)
        }
    }
}

/// `--duration`, shared by `keyboard show` and `keyboard hide`.
struct AnimationOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The animation's duration in seconds; appstated's default (0.25) when absent.", valueName: "seconds"))
    var duration: Double?

    func validate() throws {
        if let duration, !(duration >= 0 && duration <= AppStateLimits.maximumDuration) {
            throw ValidationError(
                "--duration must be from 0 to \(Formatting.number(AppStateLimits.maximumDuration)) seconds, not \(Formatting.number(duration))"
            )
        }
    }
}
