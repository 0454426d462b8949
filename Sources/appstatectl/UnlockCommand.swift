import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl unlock`: unlocks the session, for systems without logind.
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the session and print the path of the screen shown.",
        discussion: """
            Shows the logged-in screen again, as it was when the session was locked. \
            Unlocking a session that is not locked succeeds and says so on standard error. \
            With --json, prints the Unlock reply: {"changed": bool, "path": string}.

            EXAMPLE
              $ appstatectl unlock
              session/home
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try options.changeSession(Unlock.self, unchanged: "the session was not locked")
    }
}
