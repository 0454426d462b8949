import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl watch`: one line per change, until interrupted.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print one line per change of the tree, as it happens.",
        discussion: """
            The first line is the state to start from (Snapshot), then each change gives \
            a line: the local time, what caused the change (a method such as Login or a \
            bus notification such as keyboard.willShow), the deepest current path after \
            it, and the notification's userInfo as JSON when it has one. Runs until \
            interrupted or until appstated stops. With --json, prints each Watch reply \
            on a line of its own: {"root": Node} first, then {"event": Event, "root": Node}.

            EXAMPLE
              $ appstatectl watch
              2026-11-21T21:59:10 Snapshot session/login/login-form
              2026-11-21T21:59:18 Login session/home/pages/overview
              2026-11-21T21:59:31 SetPage session/home/pages/activity
            """
    )

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        try options.withClient { client in
            var replies = try client.stream(method: Watch.name, parameters: Watch.Parameters(tree: options.tree).parameters)
            while let reply = try replies.next(as: Watch.self) {
                options.emit(reply, human: WatchFormatter.line(for: reply, timestamp: LocalTime.now()))
            }
        }
    }
}
