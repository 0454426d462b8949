import AppStateCtlKit
import AppStateIPC
import AppStateRendering
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
            interrupted or until appstated stops. With --path, follows one subtree and \
            prints only what happens under it. With --json, prints each Watch reply on a \
            line of its own: {"root": Node} first, then {"event": Event, "patches": \
            {path: members}, "changed": [Node], "removed": [string]} (the members that \
            changed by node, the nodes whose children changed, the paths that are gone; \
            empty ones left out), {"event": Event, "changed": [Node], "removed": [string]} \
            (the subtrees that changed) with --subtrees, or {"event": Event, "root": Node} \
            with --full.

            EXAMPLE
              $ appstatectl watch
              2026-11-21T21:59:10 Snapshot session/login/login-form
              2026-11-21T21:59:18 Login session/home/pages/overview
              2026-11-21T21:59:31 SetPage session/home/pages/activity
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Option(help: "Follow only the subtree at this path.")
    var path: String?

    @Flag(help: "Have every reply carry the whole tree (or subtree), not only what changed.")
    var full = false

    @Flag(help: "Have each change carry the changed subtrees whole, not the members that changed.")
    var subtrees = false

    func run() throws {
        try options.withClient { client in
            let parameters = Watch.Parameters(tree: options.tree, path: path, full: full, subtrees: subtrees)
            var replies = try client.stream(method: Watch.name, parameters: parameters.parameters)
            while let reply = try replies.next(as: Watch.self) {
                options.emit(reply, human: WatchFormatter.line(for: reply, timestamp: LocalTime.now()))
            }
        }
    }
}
