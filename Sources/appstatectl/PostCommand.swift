import AppStateCore
import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl post NAME [KEY=VALUE…]`.
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Post a notification on the tree's bus, as NotificationCenter.post does.",
        discussion: """
            Each KEY=VALUE becomes a member of the notification's userInfo. A VALUE that \
            is valid JSON is sent as JSON (numbers, true, false, null, "quoted strings", \
            objects, arrays); anything else is sent as a string.

            EXAMPLES
              appstatectl post session.didLogIn user=ada
              appstatectl post keyboard.willShow duration=0.25 \\
                'frameEnd={"x":0,"y":464,"width":1280,"height":336}'
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Argument(help: "The notification name, e.g. session.didLogIn.", completion: Completion.notifications)
    var name: String

    @Argument(help: ArgumentHelp("Members of the userInfo.", valueName: "key=value"))
    var members: [String] = []

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("the notification name must not be empty") }
        _ = try userInfo()
    }

    func run() throws {
        let parameters = Post.Parameters(tree: options.tree, name: name, userInfo: try userInfo())
        let reply = try options.withClient { try $0.call(Post.self, parameters) }
        options.emit(reply, human: nil)
    }

    private func userInfo() throws -> [String: JSONValue]? {
        guard !members.isEmpty else { return nil }
        do {
            return try UserInfoArguments.parse(members)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
