import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl lock`: locks the session, for systems without logind.
struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the session and print the path of the screen shown.",
        discussion: """
            The user stays logged in; the lock screen is shown (the login container's \
            locked child, else its logged-out child). Locking when nobody is logged in, or \
            when the session is locked already, succeeds and says so on standard error. \
            With --json, prints the Lock reply: {"changed": bool, "path": string}.

            EXAMPLE
              $ appstatectl lock
              session/locked
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try options.changeSession(Lock.self, unchanged: "nothing to lock: nobody is logged in, or the session is locked already")
    }
}
