import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl introspect [INTERFACE]`: the daemon's interface definition.
struct IntrospectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "introspect",
        abstract: "Print the Varlink interface appstated speaks, with its documentation.",
        discussion: """
            The text is the interface definition as the daemon serves it, comments \
            included: every method, type and error with what it means. With --json, \
            prints the GetInterfaceDescription reply: {"description": string}.

            EXAMPLES
              appstatectl introspect | less
              appstatectl introspect org.varlink.service
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Argument(help: "The interface to describe.", completion: .list([AppStateInterface.name, VarlinkServiceInterface.name]))
    var interface: String = AppStateInterface.name

    func run() throws {
        let reply = try options.withClient { try $0.call(GetInterfaceDescription.self, .init(interface: interface)) }
        // The definition ends with a newline of its own; print adds another.
        var text = reply.description
        while text.hasSuffix("\n") { text.removeLast() }
        options.emit(reply, human: text)
    }
}
